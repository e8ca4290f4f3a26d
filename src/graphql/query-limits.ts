import {
  GraphQLError,
  Kind,
  visit,
  type ASTNode,
  type ASTVisitor,
  type DocumentNode,
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
 * The schema's own description (GraphiQL's Docs pane, Code Generator): its depth is the type
 * system's, not the data's, so these subtrees are left out of the depth and cost limits, as
 * graphql-armor does. Whether introspection is allowed at all is Apollo's `introspection`.
 */
const INTROSPECTION_ROOTS = new Set(["__schema", "__type"]);
const isIntrospection = (field: FieldNode) => INTROSPECTION_ROOTS.has(field.name.value);

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
            if (isIntrospection(selection)) return 0;
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
  const costs = new ComplexityCache(schema);
  return {
    requestDidStart: () =>
      Promise.resolve({
        didResolveOperation: ({ request, document }) => {
          const complexity = costs.of(document, request.operationName, request.variables ?? {});
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

/** Different variable values a document's cost is kept for; past this, its entries start over. */
const COSTS_PER_DOCUMENT = 32;

/**
 * The estimate walks the whole document against the schema, a noticeable share of a small
 * /graphql request's work. It depends on the document, the operation and only those
 * variables that reach a `limit` argument or a directive (@include/@skip), so it is kept per
 * document (the object Apollo's document store hands out again for the same text) and those
 * variables.
 */
export class ComplexityCache {
  private readonly byDocument = new WeakMap<
    DocumentNode,
    { costVariables: string[]; costs: Map<string, number> }
  >();

  constructor(private readonly schema: GraphQLSchema) {}

  of(
    document: DocumentNode,
    operationName: string | null | undefined,
    variables: Record<string, unknown>,
  ): number {
    let known = this.byDocument.get(document);
    if (!known) {
      known = { costVariables: costVariablesOf(document), costs: new Map() };
      this.byDocument.set(document, known);
    }
    const key = JSON.stringify([
      operationName ?? null,
      known.costVariables.map((name) => variables[name] ?? null),
    ]);
    const cached = known.costs.get(key);
    if (cached !== undefined) return cached;
    const cost = estimateComplexity(() =>
      getComplexity({
        schema: this.schema,
        query: document,
        variables,
        operationName: operationName ?? undefined,
        estimators: [
          ({ node }) => (isIntrospection(node) ? 0 : undefined),
          fieldExtensionsEstimator(),
          // A field whose arguments include a `limit` returns up to that many records.
          ({ args, childComplexity }) =>
            (typeof args.limit === "number" ? Math.min(args.limit, MAX_PAGE_LIMIT) : 1) *
            Math.max(1, childComplexity),
        ],
      }),
    );
    if (known.costs.size >= COSTS_PER_DOCUMENT) known.costs.clear();
    known.costs.set(key, cost);
    return cost;
  }
}

/** The variables a document passes to a `limit` argument or to a directive. */
function costVariablesOf(document: DocumentNode): string[] {
  const names = new Set<string>();
  const collect = (node: ASTNode) =>
    visit(node, {
      Variable: (variable) => {
        names.add(variable.name.value);
      },
    });
  visit(document, {
    Argument: (argument) => {
      if (argument.name.value === "limit") collect(argument.value);
    },
    Directive: (directive) => {
      collect(directive);
      return false;
    },
  });
  return [...names].sort();
}

/** Variables that do not coerce make the estimate throw; GraphQL's own check reports them next. */
function estimateComplexity(estimate: () => number): number {
  try {
    return estimate();
  } catch {
    return 0;
  }
}
