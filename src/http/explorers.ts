import express, { type Request, type Response, type NextFunction } from "express";
import path from "node:path";

const moduleDir = (name: string) => path.dirname(require.resolve(`${name}/package.json`));

/**
 * Swagger UI for the REST paths and GraphiQL for /graphql, both from files in node_modules
 * (no CDN: they must work on a closed network). The start-up code sits in small scripts of
 * our own rather than inline, so the Content-Security-Policy needs no 'unsafe-inline' scripts.
 */
export function swaggerUi(openApiUrl: string): express.Router {
  const router = express.Router();
  router.get("/", (req, res) => {
    // Relative asset URLs need the trailing slash.
    if (!req.originalUrl.split("?")[0].endsWith("/")) return res.redirect(301, `${req.baseUrl}/`);
    sendPage(res, swaggerPage());
  });
  router.get("/init.js", (_req, res) => {
    res
      .type("application/javascript")
      .send(
        `window.ui = SwaggerUIBundle({ url: ${JSON.stringify(openApiUrl)}, dom_id: "#swagger-ui", deepLinking: true, persistAuthorization: true });\n`,
      );
  });
  // The package's directory, found without loading its main module: that module requires the
  // whole browser bundle into the process, and keeps it in the heap, only to export this path.
  router.use(
    "/assets",
    express.static(moduleDir("swagger-ui-dist"), { index: false, maxAge: "1d" }),
  );
  return router;
}

export function graphiqlAssets(): express.Router {
  const router = express.Router();
  router.get("/explorer.js", (_req, res) => {
    res
      .type("application/javascript")
      .send(
        [
          'const fetcher = GraphiQL.createFetcher({ url: "/graphql", headers: { "apollo-require-preflight": "true" } });',
          'ReactDOM.createRoot(document.getElementById("graphiql")).render(React.createElement(GraphiQL, { fetcher, defaultEditorToolsVisibility: true }));',
          "",
        ].join("\n"),
      );
  });
  router.get(
    "/react.js",
    sendFile(path.join(moduleDir("react"), "umd", "react.production.min.js")),
  );
  router.get(
    "/react-dom.js",
    sendFile(path.join(moduleDir("react-dom"), "umd", "react-dom.production.min.js")),
  );
  router.get("/graphiql.js", sendFile(path.join(moduleDir("graphiql"), "graphiql.min.js")));
  router.get("/graphiql.css", sendFile(path.join(moduleDir("graphiql"), "graphiql.min.css")));
  return router;
}

/** A browser opening /graphql gets the explorer; API clients (POST, or GET with a query) do not. */
export function graphiqlPage(req: Request, res: Response, next: NextFunction): void {
  const wantsHtml =
    req.method === "GET" && req.accepts(["application/json", "text/html"]) === "text/html";
  if (!wantsHtml || req.query.query !== undefined) return next();
  sendPage(res, graphiqlHtml());
}

function sendFile(file: string) {
  return (_req: Request, res: Response) => res.sendFile(file, { maxAge: "1d" });
}

function sendPage(res: Response, html: string): void {
  res.type("html").send(html);
}

function swaggerPage(): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Chaplaincy membership API: REST v1</title>
<link rel="stylesheet" href="assets/swagger-ui.css"></head>
<body><div id="swagger-ui"></div>
<script src="assets/swagger-ui-bundle.js"></script><script src="init.js"></script></body></html>`;
}

function graphiqlHtml(): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Chaplaincy membership API: GraphQL</title>
<link rel="stylesheet" href="/graphql/assets/graphiql.css">
<style>body{margin:0;height:100vh}#graphiql{height:100vh}</style></head>
<body><div id="graphiql">Loading…</div>
<script src="/graphql/assets/react.js"></script><script src="/graphql/assets/react-dom.js"></script>
<script src="/graphql/assets/graphiql.js"></script><script src="/graphql/assets/explorer.js"></script></body></html>`;
}
