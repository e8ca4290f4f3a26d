import {
  astFromValue,
  execute,
  getNullableType,
  getOperationAST,
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
} from "graphql";
import { compileQuery, isCompiledQuery, type CompiledQuery } from "graphql-jit";

interface Compiled {
  query: CompiledQuery;
  variables: { name: string; type: GraphQLInputType; fallback: unknown }[];
}

/**
 * Operations whose documents are fixed (one per REST route) run as JavaScript compiled from
 * the document once (graphql-jit) instead of walking the document on every request: the same
 * resolvers, scalars and errors. Their variables arrive checked (the REST gate), so only the
 * defaults are filled in. A document that cannot be compiled runs through graphql-js.
 */
export class CompiledOperations {
  private readonly compiled = new WeakMap<DocumentNode, Compiled | null>();

  execute(args: ExecutionArgs): Promise<ExecutionResult> | ExecutionResult {
    const compiled = this.compiledFor(args);
    if (!compiled) return execute(args);
    const result = compiled.query.query(
      args.rootValue,
      args.contextValue,
      withDefaults(args.variableValues ?? {}, compiled.variables),
    );
    return result instanceof Promise ? result.then(withStandardErrors) : withStandardErrors(result);
  }

  private compiledFor({ schema, document, operationName }: ExecutionArgs): Compiled | null {
    let compiled = this.compiled.get(document);
    if (compiled === undefined) {
      const query = compileQuery(schema, document, operationName ?? undefined);
      compiled = isCompiledQuery(query)
        ? { query, variables: variablesOf(schema, document, operationName) }
        : null;
      this.compiled.set(document, compiled);
    }
    return compiled;
  }
}

function variablesOf(
  schema: GraphQLSchema,
  document: DocumentNode,
  operationName: ExecutionArgs["operationName"],
): Compiled["variables"] {
  return (getOperationAST(document, operationName)?.variableDefinitions ?? []).flatMap(
    (definition) => {
      const type = typeFromAST(schema, definition.type);
      if (!type || !isInputType(type)) return [];
      const fallback = definition.defaultValue && valueFromASTUntyped(definition.defaultValue);
      return [{ name: definition.variable.name.value, type, fallback }];
    },
  );
}

/**
 * graphql-jit refuses a missing non-null value even where the operation or the input type
 * gives it a default, which GraphQL itself uses: the defaults are filled in, in the form a
 * client would send, before jit reads the variables.
 */
function withDefaults(
  variables: Readonly<Record<string, unknown>>,
  definitions: Compiled["variables"],
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
    return Array.isArray(value)
      ? value.map((entry) => withInputDefaults(entry, inner.ofType))
      : withInputDefaults(value, inner.ofType);
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

/** graphql-jit's errors lack what graphql-js guarantees (an `extensions` object, for one). */
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
