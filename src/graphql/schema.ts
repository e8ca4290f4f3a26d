import "reflect-metadata";
import type { GraphQLSchema } from "graphql";
import { buildSchema } from "type-graphql";
import { BranchServiceResolver } from "../modules/branch-services/branch-service.resolver";
import { authChecker } from "./auth-checker";
import { validateArguments } from "./validation";

export const resolvers = [BranchServiceResolver] as const;

export function buildAppSchema(): Promise<GraphQLSchema> {
  return buildSchema({
    resolvers: [...resolvers],
    authChecker,
    validateFn: validateArguments,
  });
}
