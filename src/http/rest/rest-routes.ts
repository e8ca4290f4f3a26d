export const API_BASE = "/api/v1";

export type HttpMethod = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

/** One REST path of /api/v1 and the GraphQL root field it runs. */
export interface RestRoute {
  /** `Query.field` or `Mutation.field` */
  operation: `${"Query" | "Mutation"}.${string}`;
  method: HttpMethod;
  /** Express/Sofa syntax relative to /api/v1, `:name` for path parameters. */
  path: string;
  /** Success status; 204 answers with no body. */
  status: 200 | 201 | 204;
  tag: string;
  /** Error statuses beyond those every route shares (400, 429, 500, 503) and those implied by auth and ids. */
  errors?: number[];
}

/**
 * The documented v1 paths. Every Query and Mutation field must appear here (a test checks),
 * so each REST route is exactly one GraphQL operation and nothing is mounted by accident.
 */
export const REST_ROUTES: RestRoute[] = [
  {
    operation: "Query.branchServices",
    method: "GET",
    path: "/branch-service",
    status: 200,
    tag: "Branch services",
  },
  {
    operation: "Query.branchService",
    method: "GET",
    path: "/branch-service/:id",
    status: 200,
    tag: "Branch services",
  },
  {
    operation: "Mutation.createBranchService",
    method: "POST",
    path: "/branch-service/create",
    status: 201,
    tag: "Branch services",
    errors: [409],
  },
  {
    operation: "Mutation.updateBranchService",
    method: "PUT",
    path: "/branch-service/:id",
    status: 200,
    tag: "Branch services",
    errors: [409],
  },
  {
    operation: "Mutation.deleteBranchService",
    method: "DELETE",
    path: "/branch-service/:id",
    status: 204,
    tag: "Branch services",
    errors: [409],
  },
];

export function fieldOf(route: RestRoute): { kind: "Query" | "Mutation"; field: string } {
  const [kind, field] = route.operation.split(".") as ["Query" | "Mutation", string];
  return { kind, field };
}
