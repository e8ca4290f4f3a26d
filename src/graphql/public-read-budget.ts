import type { ApolloServerPlugin, HTTPGraphQLHead } from "@apollo/server";
import {
  getDirectiveValues,
  GraphQLError,
  GraphQLIncludeDirective,
  GraphQLSkipDirective,
  Kind,
  OperationTypeNode,
  type FragmentDefinitionNode,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type SelectionSetNode,
} from "graphql";
import { AppError } from "../errors/app-errors";
import type { RequestContext } from "./context";
import { restRoutes } from "./rest-route";

/** Takes `count` points of the caller's address from the public-read bucket (RateLimits). */
export type ConsumePublicReads = (ip: string, count: number) => Promise<void>;

/**
 * The public reads of the schema: the root fields whose REST route is a public cached read
 * (`@Rest(…, { publicCache })`), the same ones REST draws from the per-IP public-read bucket.
 */
export function publicReadFields(schema: GraphQLSchema): ReadonlySet<string> {
  return new Set(
    restRoutes(schema)
      .filter((route) => route.publicCache && route.operation.startsWith("Query."))
      .map((route) => route.field.name),
  );
}

/**
 * One public-read budget per address for REST and /graphql: a document draws one point for
 * each public read it runs (each alias is a run of its own), before anything runs, so that 15
 * aliased `publicMember` fields cost what 15 REST requests cost. Past the budget the whole
 * document is refused with 429 and Retry-After, as REST answers.
 */
export function publicReadBudgetPlugin(
  schema: GraphQLSchema,
  consume: ConsumePublicReads,
): ApolloServerPlugin<RequestContext> {
  const publicFields = publicReadFields(schema);
  return {
    requestDidStart: () =>
      Promise.resolve({
        didResolveOperation: async ({ operation, document, request, response, contextValue }) => {
          if (operation?.operation !== OperationTypeNode.QUERY) return;
          const fragments = new Map(
            document.definitions
              .filter((d): d is FragmentDefinitionNode => d.kind === Kind.FRAGMENT_DEFINITION)
              .map((d) => [d.name.value, d]),
          );
          const count = publicReadsOf(operation, fragments, publicFields, request.variables);
          if (count === 0) return;
          try {
            await consume(contextValue.client.ip ?? "unknown", count);
          } catch (error) {
            throw asHttpError(error, response.http);
          }
        },
      }),
  };
}

/**
 * How many public root fields the operation runs: graphql-js runs each response key once (two
 * selections under one alias merge), and a field left out by @skip/@include does not run.
 */
export function publicReadsOf(
  operation: OperationDefinitionNode,
  fragments: ReadonlyMap<string, FragmentDefinitionNode>,
  publicFields: ReadonlySet<string>,
  variables: Record<string, unknown> = {},
): number {
  const keys = new Set<string>();
  const visited = new Set<string>();
  const included = (node: Parameters<typeof getDirectiveValues>[1]) =>
    getDirectiveValues(GraphQLSkipDirective, node, variables)?.if !== true &&
    getDirectiveValues(GraphQLIncludeDirective, node, variables)?.if !== false;
  const walk = (set: SelectionSetNode) => {
    for (const selection of set.selections) {
      if (!included(selection)) continue;
      if (selection.kind === Kind.FIELD) {
        if (publicFields.has(selection.name.value))
          keys.add(selection.alias?.value ?? selection.name.value);
      } else if (selection.kind === Kind.INLINE_FRAGMENT) {
        walk(selection.selectionSet);
      } else if (!visited.has(selection.name.value)) {
        visited.add(selection.name.value);
        const fragment = fragments.get(selection.name.value);
        if (fragment) walk(fragment.selectionSet);
      }
    }
  };
  walk(operation.selectionSet);
  return keys.size;
}

/**
 * A refusal before execution: Apollo answers with the status in `extensions.http` and the
 * headers already on the response (Retry-After).
 */
function asHttpError(error: unknown, http: HTTPGraphQLHead): unknown {
  if (!(error instanceof AppError)) return error;
  for (const [name, value] of Object.entries(error.headers ?? {}))
    http.headers.set(name.toLowerCase(), value);
  return new GraphQLError(error.message, {
    originalError: error,
    extensions: { http: { status: error.status } },
  });
}
