import {
  astFromValue,
  execute,
  getNullableType,
  getOperationAST,
  getVariableValues,
  GraphQLError,
  isInputObjectType,
  isInputType,
  isListType,
  typeFromAST,
  valueFromASTUntyped,
  type DocumentNode,
  type ExecutionArgs,
  type ExecutionResult,
  type GraphQLInputType,
  type GraphQLSchema,
  type VariableDefinitionNode,
} from "graphql";
import { compileQuery, isCompiledQuery, type CompiledQuery } from "graphql-jit";

/** A document seen this many times is compiled; before that it is interpreted. */
const COMPILE_AFTER_EXECUTIONS = 2;

interface Compiled {
  query: CompiledQuery;
  definitions: readonly VariableDefinitionNode[];
  variables: VariableDefinition[];
}

interface VariableDefinition {
  name: string;
  type: GraphQLInputType;
  /** The operation's default, as a client would send it. */
  fallback: unknown;
}

interface DocumentState {
  executions: number;
  /** Per operation name ("" for the only one); null when it could not be compiled. */
  compiled: Map<string, Compiled | null>;
}

/**
 * Runs operations as JavaScript compiled from their document (graphql-jit) instead of
 * walking the document for every request: the same resolvers and results, with less CPU
 * and garbage per request. Sofa's documents are fixed, one per REST route; Apollo keeps
 * each parsed client document in its own bounded cache, so keying by the document object
 * bounds what is kept here too. A document is compiled on its second execution, so a
 * stream of one-off documents costs no compilation.
 */
export class CompiledExecution {
  private readonly documents = new WeakMap<DocumentNode, DocumentState>();
  private compiledCount = 0;

  constructor(private readonly schema: GraphQLSchema) {}

  /** How many operations have been compiled so far (for tests and diagnostics). */
  get compiledDocuments(): number {
    return this.compiledCount;
  }

  execute(args: ExecutionArgs): Promise<ExecutionResult> | ExecutionResult {
    const compiled = args.schema === this.schema ? this.compiledFor(args) : null;
    if (!compiled) return execute(args);
    const variables = args.variableValues ?? {};
    // graphql's own check first, for its exact messages (they name the failing field).
    const checked = getVariableValues(this.schema, compiled.definitions, variables);
    if (checked.errors) return { errors: checked.errors };
    const result = compiled.query.query(
      args.rootValue,
      args.contextValue,
      withDefaults(variables, compiled.variables),
    );
    return isPromise(result) ? result.then(withStandardErrors) : withStandardErrors(result);
  }

  private compiledFor(args: ExecutionArgs): Compiled | null {
    let state = this.documents.get(args.document);
    if (!state) {
      state = { executions: 0, compiled: new Map() };
      this.documents.set(args.document, state);
    }
    state.executions += 1;
    if (state.executions < COMPILE_AFTER_EXECUTIONS) return null;
    const name = args.operationName ?? "";
    if (!state.compiled.has(name)) {
      const result = compileQuery(this.schema, args.document, args.operationName ?? undefined);
      // Not compilable (the document has errors the interpreter reports properly).
      state.compiled.set(name, isCompiledQuery(result) ? this.compiled(result, args) : null);
    }
    return state.compiled.get(name) ?? null;
  }

  private compiled(query: CompiledQuery, args: ExecutionArgs): Compiled {
    this.compiledCount += 1;
    const definitions = getOperationAST(args.document, args.operationName)?.variableDefinitions;
    return {
      query,
      definitions: definitions ?? [],
      variables: this.variablesOf(definitions ?? []),
    };
  }

  private variablesOf(definitions: readonly VariableDefinitionNode[]): VariableDefinition[] {
    return definitions.flatMap((definition) => {
      const type = typeFromAST(this.schema, definition.type);
      if (!type || !isInputType(type)) return [];
      const fallback = definition.defaultValue && valueFromASTUntyped(definition.defaultValue);
      return [{ name: definition.variable.name.value, type, fallback }];
    });
  }
}

/**
 * graphql-jit refuses a missing non-null value even where the operation or the input type
 * gives it a default (GraphQL itself uses the default; Sofa declares `$page: Int! = 1`, and
 * input fields such as `items` default to empty): the defaults are filled in here, in the
 * form a client would send, before jit reads the variables.
 */
function withDefaults(
  variables: Readonly<Record<string, unknown>>,
  definitions: VariableDefinition[],
): Record<string, unknown> {
  const filled: Record<string, unknown> = { ...variables };
  for (const { name, type, fallback } of definitions) {
    const value = Object.hasOwn(variables, name) ? variables[name] : fallback;
    if (value !== undefined) filled[name] = withInputDefaults(value, type);
  }
  return filled;
}

function withInputDefaults(value: unknown, type: GraphQLInputType): unknown {
  if (value === null || value === undefined) return value;
  const inner = getNullableType(type);
  if (isListType(inner)) {
    const item = inner.ofType;
    return Array.isArray(value)
      ? value.map((entry) => withInputDefaults(entry, item))
      : withInputDefaults(value, item);
  }
  if (!isInputObjectType(inner) || typeof value !== "object" || Array.isArray(value)) return value;
  const filled: Record<string, unknown> = { ...(value as Record<string, unknown>) };
  for (const field of Object.values(inner.getFields())) {
    if (Object.hasOwn(filled, field.name)) {
      filled[field.name] = withInputDefaults(filled[field.name], field.type);
    } else if (field.defaultValue !== undefined) {
      const literal = astFromValue(field.defaultValue, field.type);
      if (literal) filled[field.name] = valueFromASTUntyped(literal);
    }
  }
  return filled;
}

function isPromise<T>(value: T | Promise<T>): value is Promise<T> {
  return typeof (value as Promise<T>).then === "function";
}

/**
 * graphql-jit's errors lack what graphql-js guarantees (an `extensions` object, for one),
 * which Apollo relies on: report them as graphql-js errors with the same content.
 */
function withStandardErrors(result: ExecutionResult): ExecutionResult {
  if (!result.errors) return result;
  const errors = result.errors.map((jitError) => {
    const error = new GraphQLError(jitError.message, {
      path: jitError.path,
      originalError: jitError.originalError ?? undefined,
      extensions: jitError.extensions ?? undefined,
    });
    (error as { locations?: GraphQLError["locations"] }).locations = jitError.locations;
    return error;
  });
  return { ...result, errors };
}
