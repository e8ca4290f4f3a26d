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
 * Field selections a document may expand to once its fragments are spread in. Every field
 * costs at least 1 and lies on a path of at most MAX_QUERY_DEPTH + 1 fields to a leaf, so a
 * document within the cost limit never comes near this; past it the cost estimate, which
 * expands every spread, is never started.
 */
export const MAX_SELECTIONS = MAX_QUERY_COMPLEXITY * (MAX_QUERY_DEPTH + 1);

export interface QueryLimits {
  depth: number;
  aliases: number;
  directives: number;
  selections: number;
}

export const QUERY_LIMITS: QueryLimits = {
  depth: MAX_QUERY_DEPTH,
  aliases: MAX_ALIASES,
  directives: MAX_DIRECTIVES,
  selections: MAX_SELECTIONS,
};

/**
 * Limits that refuse documents too deep, too wide or too costly to expand before they run,
 * so one request cannot make the server walk an unbounded tree. List fields cost their page
 * size (complexityLimitPlugin, once these have passed).
 */
export function queryLimitRules(): ValidationRule[] {
  return [queryLimitRule(QUERY_LIMITS)];
}

export function depthLimit(maxDepth: number): ValidationRule {
  return queryLimitRule({ depth: maxDepth });
}

/** What an operation or fragment amounts to once every spread in it is expanded. */
interface Extent {
  depth: number;
  aliases: number;
  directives: number;
  selections: number;
}

const NOTHING: Extent = { depth: 0, aliases: 0, directives: 0, selections: 0 };

/**
 * One walk of the document in which each fragment is measured once and remembered, so a
 * fragment spread many times (or fragments that each spread the next several times) costs
 * one look-up per spread instead of a walk of everything below it: the time is linear in
 * the document's length whatever it would expand to.
 */
export function queryLimitRule(limits: Partial<QueryLimits>): ValidationRule {
  return (context: ValidationContext): ASTVisitor => {
    const fragments = new Map<string, SelectionSetNode>();
    for (const definition of context.getDocument().definitions) {
      if (definition.kind === Kind.FRAGMENT_DEFINITION) {
        fragments.set(definition.name.value, definition.selectionSet);
      }
    }
    const measured = new Map<string, Extent>();
    const fragmentExtent = (name: string): Extent => {
      const known = measured.get(name);
      if (known) return known;
      const selectionSet = fragments.get(name);
      // A cycle or an unknown fragment: graphql-js's own rules refuse the document.
      measured.set(name, NOTHING);
      if (!selectionSet) return NOTHING;
      const extent = extentOf(selectionSet);
      measured.set(name, extent);
      return extent;
    };
    const extentOf = (set: SelectionSetNode): Extent => {
      const total = { ...NOTHING };
      for (const selection of set.selections) {
        const directives = selection.directives?.length ?? 0;
        let inner: Extent;
        let own = 0;
        if (selection.kind === Kind.FIELD) {
          own = 1;
          const below = selection.selectionSet ? extentOf(selection.selectionSet) : NOTHING;
          // The schema's description is as deep as the type system, not the data.
          const depth = isIntrospection(selection) ? 0 : 1 + below.depth;
          inner = { ...below, depth, aliases: below.aliases + (selection.alias ? 1 : 0) };
        } else if (selection.kind === Kind.INLINE_FRAGMENT) {
          inner = extentOf(selection.selectionSet);
        } else {
          inner = fragmentExtent(selection.name.value);
        }
        total.depth = Math.max(total.depth, inner.depth);
        total.aliases += inner.aliases;
        total.directives += inner.directives + directives;
        total.selections += inner.selections + own;
      }
      return total;
    };
    return {
      OperationDefinition(node) {
        const extent = extentOf(node.selectionSet);
        for (const refusal of refusalsOf(extent, limits)) {
          context.reportError(new GraphQLError(refusal, { nodes: [node] }));
        }
      },
    };
  };
}

function refusalsOf(extent: Extent, limits: Partial<QueryLimits>): string[] {
  const refusals: string[] = [];
  const over = (what: keyof QueryLimits) =>
    limits[what] !== undefined && extent[what] > limits[what];
  if (over("depth"))
    refusals.push(`Query depth ${extent.depth} exceeds the limit of ${limits.depth}`);
  if (over("aliases"))
    refusals.push(`The document has ${extent.aliases} aliases; the limit is ${limits.aliases}`);
  if (over("directives")) {
    refusals.push(
      `The document has ${extent.directives} directives; the limit is ${limits.directives}`,
    );
  }
  if (over("selections")) {
    refusals.push(
      `The document expands to ${extent.selections} field selections; the limit is ${limits.selections}`,
    );
  }
  return refusals;
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
