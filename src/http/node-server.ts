import http from "node:http";
import type { Express } from "express";

/**
 * Node's http server options that have it build each request and response with the express
 * app's prototypes already in place.
 *
 * express 5 otherwise switches the prototype of every request and response
 * (`Object.setPrototypeOf` in `app.handle`). V8 then gives the object a map of its own that
 * records no transitions, so each property that express, its middleware and ours add later
 * allocates a new map and descriptor array: garbage that reaches the old generation (so full
 * collections under load) and property reads that no inline cache can keep up with. Built with
 * the right prototype, the objects share their maps again and express's switch is a no-op
 * (docs/decisions.md, "express's prototype switch").
 */
export function expressServerOptions(app: Express): http.ServerOptions {
  class AppRequest extends http.IncomingMessage {}
  class AppResponse<R extends http.IncomingMessage> extends http.ServerResponse<R> {}
  // The chain stays express's: instance -> App* prototype -> app.request -> express -> node.
  Object.setPrototypeOf(AppRequest.prototype, app.request);
  Object.setPrototypeOf(AppResponse.prototype, app.response);
  app.request = AppRequest.prototype as unknown as Express["request"];
  app.response = AppResponse.prototype as unknown as Express["response"];
  return { IncomingMessage: AppRequest, ServerResponse: AppResponse };
}
