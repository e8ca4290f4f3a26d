import { getMetadataStorage } from "type-graphql";
import { validateArguments } from "../graphql/validation";

type Args = Record<string, unknown>;

/**
 * The service's argument rules (an email's shape, the password policy, lengths) for a root
 * field, from the same type-graphql metadata its resolver is declared with, so the mock
 * refuses what the service refuses with the same VALIDATION_ERROR. The mock's resolvers
 * replace the service's, and with them type-graphql's own call of the validator.
 */
export function argumentValidator(fieldName: string): (args: Args) => Promise<void> {
  const storage = getMetadataStorage();
  const resolver = [...storage.queries, ...storage.mutations].find(
    (candidate) => candidate.schemaName === fieldName,
  );
  const argsClasses = (resolver?.params ?? []).flatMap((param) =>
    param.kind === "args" ? [param.getType() as new () => object] : [],
  );
  return async (args) => {
    for (const ArgsClass of argsClasses)
      await validateArguments(Object.assign(new ArgsClass(), args), ArgsClass, {} as never);
  };
}
