import { ApolloServer, type ApolloServerPlugin } from "@apollo/server";
import {
  ApolloServerPluginCacheControlDisabled,
  ApolloServerPluginLandingPageDisabled,
} from "@apollo/server/plugin/disabled";
import type { GraphQLFormattedError, GraphQLSchema } from "graphql";
import {
  recognise,
  toErrorResponse,
  withoutSuggestion,
  type ErrorMappingOptions,
} from "../errors/error-mapper";
import type { RequestContext } from "./context";
import { publicReadBudgetPlugin, type ConsumePublicReads } from "./public-read-budget";
import { complexityLimitPlugin, MAX_TOKENS, queryLimitRules } from "./query-limits";

export interface GraphqlServerOptions {
  schema: GraphQLSchema;
  introspection: boolean;
  exposeErrorDetail: boolean;
  /** Leave GraphQL's "Did you mean …?" out of error messages; by default, without introspection. */
  hideSuggestions?: boolean;
  /** Draws the public root fields a document runs from the per-IP public-read bucket. */
  consumePublicReads?: ConsumePublicReads;
}

/**
 * /graphql follows GraphQL over HTTP: 200 with `errors` for failures inside an operation,
 * 400 for a document that does not parse or validate. Each error carries our `code` and
 * the `status` REST would have answered, in `extensions`.
 */
export function createGraphqlServer(options: GraphqlServerOptions): ApolloServer<RequestContext> {
  const hideSuggestions = options.hideSuggestions ?? !options.introspection;
  return new ApolloServer<RequestContext>({
    schema: options.schema,
    introspection: options.introspection,
    // Otherwise "Did you mean …?" spells out the schema field by field.
    hideSchemaDetailsFromClientErrors: hideSuggestions,
    allowBatchedHttpRequests: false,
    validationRules: queryLimitRules(),
    parseOptions: { maxTokens: MAX_TOKENS },
    includeStacktraceInErrorResponses: false,
    csrfPrevention: true,
    // Shutdown is ours (src/main.ts): Apollo would re-raise SIGTERM and kill the process mid-drain.
    stopOnTerminationSignals: false,
    plugins: [
      ApolloServerPluginLandingPageDisabled(),
      // Nothing here is cacheable by HTTP caches, and the plugin wraps every field resolver.
      ApolloServerPluginCacheControlDisabled(),
      complexityLimitPlugin(options.schema),
      ...(options.consumePublicReads
        ? [publicReadBudgetPlugin(options.schema, options.consumePublicReads)]
        : []),
      logUnexpectedErrors(),
    ],
    formatError: (formatted, error) => {
      const shown = formatGraphqlError(formatted, error, {
        exposeDetail: options.exposeErrorDetail,
        hideSuggestions,
      });
      // Apollo's option covers validation; variable coercion suggests enum values the same way.
      return hideSuggestions ? { ...shown, message: withoutSuggestion(shown.message) } : shown;
    },
  });
}

function formatGraphqlError(
  formatted: GraphQLFormattedError,
  error: unknown,
  mapping: ErrorMappingOptions,
): GraphQLFormattedError {
  const apolloCode = formatted.extensions?.code;
  if (typeof apolloCode === "string" && apolloCode.startsWith("GRAPHQL_")) {
    // Parse and validation failures: GraphQL's message is the useful one.
    return { ...formatted, extensions: { code: "BAD_REQUEST", status: 400 } };
  }
  const { status, body } = toErrorResponse(error, mapping);
  const { code, message, ...rest } = body;
  return {
    message,
    locations: formatted.locations,
    path: formatted.path,
    extensions: { code, status, ...rest },
  };
}

function logUnexpectedErrors(): ApolloServerPlugin<RequestContext> {
  return {
    requestDidStart: () =>
      Promise.resolve({
        didEncounterErrors: ({ errors, contextValue }) => {
          for (const error of errors) {
            if (!recognise(error))
              contextValue.log.error(
                { err: error.originalError ?? error },
                "unexpected error in /graphql",
              );
          }
          return Promise.resolve();
        },
      }),
  };
}
