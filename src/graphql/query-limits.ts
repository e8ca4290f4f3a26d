import {
  GraphQLError,
  Kind,
  type ASTVisitor,
  type FieldNode,
  type GraphQLSchema,
  type SelectionSetNode,
  type ValidationContext,
  type ValidationRule,
} from "graphql";
import type { ApolloServerPlugin } from "@apollo/server";
import { MAX_PAGE_LIMIT } from "./paging";
import { fieldExtensionsEstimator, getComplexity } from "graphql-query-complexity";

export const MAX_QUERY_DEPTH = 10;
/** graphql-armor's defaults: aliases and directives are cheap to write and costly to run. */
export const MAX_ALIASES = 15;
export const MAX_DIRECTIVES = 50;
/** A document longer than this many tokens is refused by the parser before anything else. */
export const MAX_TOKENS = 2_000;
/** A full page (100 records, every field) costs about 1 500; a few such lists fit. */
export const MAX_QUERY_COMPLEXITY = 5_000;

/**
 * Limits that refuse documents too deep or too costly before they run, so one request
 * cannot make the server walk an unbounded tree. List fields cost their page size.
 */
export function queryLimitRules(): ValidationRule[] {
  return [
    depthLimit(MAX_QUERY_DEPTH),
    countLimit("aliases", MAX_ALIASES, (field) => (field.alias ? 1 : 0)),
    countLimit("directives", MAX_DIRECTIVES, (field) => field.directives?.length ?? 0),
  ];
}

/** Refuses a document with more than `maximum` of something counted on its fields (`what`, plural). */
export function countLimit(
  what: string,
  maximum: number,
  countIn: (field: FieldNode) => number,
): ValidationRule {
  return (context: ValidationContext): ASTVisitor => {
    let count = 0;
    return {
      Field(node) {
        count += countIn(node);
      },
      Document: {
        leave(node) {
          if (count > maximum) {
            context.reportError(
              new GraphQLError(`The document has ${count} ${what}; the limit is ${maximum}`, {
                nodes: [node],
              }),
            );
          }
        },
      },
    };
  };
}

export function depthLimit(maxDepth: number): ValidationRule {
  return (context: ValidationContext): ASTVisitor => {
    const fragments = new Map(
      context
        .getDocument()
        .definitions.filter((d) => d.kind === Kind.FRAGMENT_DEFINITION)
        .map((d) => [d.name.value, d.selectionSet]),
    );
    const depthOf = (set: SelectionSetNode, seen: Set<string>): number =>
      Math.max(
        0,
        ...set.selections.map((selection) => {
          if (selection.kind === Kind.FIELD) {
            return selection.selectionSet ? 1 + depthOf(selection.selectionSet, seen) : 1;
          }
          if (selection.kind === Kind.INLINE_FRAGMENT) return depthOf(selection.selectionSet, seen);
          const name = selection.name.value;
          const fragment = fragments.get(name);
          if (!fragment || seen.has(name)) return 0;
          return depthOf(fragment, new Set(seen).add(name));
        }),
      );
    return {
      OperationDefinition(node) {
        const depth = depthOf(node.selectionSet, new Set());
        if (depth > maxDepth) {
          context.reportError(
            new GraphQLError(`Query depth ${depth} exceeds the limit of ${maxDepth}`, {
              nodes: [node],
            }),
          );
        }
      },
    };
  };
}

/**
 * The cost check needs the request's variables (a `limit` may come from one), which
 * validation rules never see; Apollo's didResolveOperation has both.
 */
export function complexityLimitPlugin(
  schema: GraphQLSchema,
  maximum = MAX_QUERY_COMPLEXITY,
): ApolloServerPlugin {
  return {
    requestDidStart: () =>
      Promise.resolve({
        didResolveOperation: ({ request, document }) => {
          const complexity = estimateComplexity(() =>
            getComplexity({
              schema,
              query: document,
              variables: request.variables ?? {},
              operationName: request.operationName ?? undefined,
              estimators: [
                fieldExtensionsEstimator(),
                // A field whose arguments include a `limit` returns up to that many records.
                ({ args, childComplexity }) =>
                  (typeof args.limit === "number" ? Math.min(args.limit, MAX_PAGE_LIMIT) : 1) *
                  Math.max(1, childComplexity),
              ],
            }),
          );
          if (complexity > maximum) {
            throw new GraphQLError(
              `Query complexity ${complexity} exceeds the limit of ${maximum}`,
              {
                extensions: { code: "GRAPHQL_QUERY_TOO_COMPLEX", http: { status: 400 } },
              },
            );
          }
          return Promise.resolve();
        },
      }),
  };
}

/** Variables that do not coerce make the estimate throw; GraphQL's own check reports them next. */
function estimateComplexity(estimate: () => number): number {
  try {
    return estimate();
  } catch {
    return 0;
  }
}
