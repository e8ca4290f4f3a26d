// Over 300 lines because it is a table, one row per route.
import type { ErrorCode } from "../../errors/app-errors";

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
  /** Arguments a body route reads from the query string (`POST /auth/reset-password?token=`). */
  queryArguments?: string[];
  /** Top-level response fields left out when null ("no accessToken" rather than `null`). */
  omitWhenNull?: string[];
  /** OpenAPI summary; without it, the first sentence of the GraphQL field's description. */
  summary?: string;
  /** Codes beyond each status's usual one (401 UNAUTHENTICATED…), each with its example. */
  errorCodes?: ErrorCode[];
  /** The request body's example in OpenAPI, where the one made from the schema would not do. */
  example?: Record<string, unknown>;
  /** A public route where a bearer token, when sent, lets the caller do more (register). */
  optionalBearer?: boolean;
  /** What the route does with the refreshToken cookie (documented in OpenAPI). */
  refreshCookie?: "sets" | "rotates" | "clears";
}

const AUTH_RESULT_OPTIONALS = ["user", "accessToken", "mfaToken"];

/**
 * The documented v1 paths. Every Query and Mutation field must appear here (a test checks),
 * so each REST route is exactly one GraphQL operation and nothing is mounted by accident.
 */
export const REST_ROUTES: RestRoute[] = [
  {
    operation: "Mutation.register",
    refreshCookie: "sets",
    method: "POST",
    path: "/auth/register",
    status: 200,
    tag: "Auth",
    errors: [401, 403, 409],
    omitWhenNull: AUTH_RESULT_OPTIONALS,
    optionalBearer: true,
  },
  {
    operation: "Mutation.login",
    refreshCookie: "sets",
    method: "POST",
    path: "/auth/login",
    status: 200,
    tag: "Auth",
    errors: [401],
    omitWhenNull: AUTH_RESULT_OPTIONALS,
    errorCodes: ["INVALID_CREDENTIALS"],
  },
  {
    operation: "Mutation.logout",
    method: "DELETE",
    path: "/auth/logout",
    status: 200,
    tag: "Auth",
    refreshCookie: "clears",
  },
  {
    operation: "Mutation.refreshToken",
    refreshCookie: "rotates",
    method: "GET",
    path: "/auth/refresh-token",
    status: 200,
    tag: "Auth",
    errors: [401],
  },
  {
    operation: "Mutation.forgotPassword",
    method: "POST",
    path: "/auth/forgot-password",
    status: 200,
    tag: "Auth",
  },
  {
    operation: "Mutation.resetPassword",
    method: "POST",
    path: "/auth/reset-password",
    status: 200,
    tag: "Auth",
    queryArguments: ["token"],
    errorCodes: ["INVALID_TOKEN"],
  },
  {
    operation: "Mutation.verifyEmail",
    method: "POST",
    path: "/auth/verify-email",
    status: 200,
    tag: "Auth",
    errorCodes: ["INVALID_TOKEN"],
  },
  {
    operation: "Mutation.resendEmailVerification",
    method: "POST",
    path: "/auth/resend-email-verification",
    status: 200,
    tag: "Auth",
  },
  {
    operation: "Mutation.setupMfa",
    method: "POST",
    path: "/auth/mfa/setup",
    status: 200,
    tag: "Auth",
    errors: [409],
  },
  {
    operation: "Mutation.enableMfa",
    method: "POST",
    path: "/auth/mfa/enable",
    status: 200,
    tag: "Auth",
    errors: [409],
    errorCodes: ["INVALID_TOKEN", "REAUTHENTICATION_REQUIRED"],
  },
  {
    operation: "Mutation.verifyMfa",
    refreshCookie: "sets",
    method: "POST",
    path: "/auth/mfa/verify",
    status: 200,
    tag: "Auth",
    errors: [401],
    omitWhenNull: AUTH_RESULT_OPTIONALS,
    errorCodes: ["INVALID_CREDENTIALS", "INVALID_TOKEN"],
  },
  {
    operation: "Mutation.disableMfa",
    method: "POST",
    path: "/auth/mfa/disable",
    status: 200,
    tag: "Auth",
    errors: [409],
    errorCodes: ["INVALID_TOKEN", "REAUTHENTICATION_REQUIRED"],
  },
  {
    operation: "Mutation.reauthenticate",
    method: "POST",
    path: "/auth/reauthenticate",
    status: 200,
    tag: "Auth",
    errorCodes: ["INVALID_CREDENTIALS"],
  },
  {
    operation: "Mutation.changePassword",
    method: "POST",
    path: "/auth/change-password",
    status: 200,
    tag: "Auth",
    errors: [409],
    errorCodes: ["INVALID_CREDENTIALS"],
  },
  { operation: "Query.sessions", method: "GET", path: "/auth/sessions", status: 200, tag: "Auth" },
  {
    operation: "Mutation.endSession",
    method: "DELETE",
    path: "/auth/sessions/:id",
    status: 204,
    tag: "Auth",
    errors: [404],
  },
  {
    operation: "Query.currentUser",
    method: "GET",
    path: "/users/current",
    status: 200,
    tag: "Users",
  },
  {
    operation: "Mutation.updateCurrentUser",
    method: "PUT",
    path: "/users/current",
    status: 200,
    tag: "Users",
    errors: [409],
    errorCodes: ["REAUTHENTICATION_REQUIRED"],
  },
  {
    operation: "Mutation.deleteCurrentUser",
    method: "DELETE",
    path: "/users/current",
    status: 204,
    tag: "Users",
    errors: [409],
    errorCodes: ["REAUTHENTICATION_REQUIRED"],
  },
  {
    operation: "Query.currentUserExport",
    method: "GET",
    path: "/users/current/export",
    status: 200,
    tag: "Users",
  },
  {
    operation: "Query.userExport",
    method: "GET",
    path: "/users/:userId/export",
    status: 200,
    tag: "Users",
  },
  { operation: "Query.users", method: "GET", path: "/users", status: 200, tag: "Users" },
  { operation: "Query.user", method: "GET", path: "/users/:userId", status: 200, tag: "Users" },
  {
    operation: "Mutation.deleteUser",
    method: "DELETE",
    path: "/users/:userId",
    status: 204,
    tag: "Users",
    errors: [409],
  },
  {
    operation: "Mutation.applyForMembership",
    method: "POST",
    path: "/members/apply",
    status: 201,
    tag: "Members",
    errors: [403, 409],
    errorCodes: ["EMAIL_NOT_VERIFIED"],
  },
  { operation: "Query.members", method: "GET", path: "/members", status: 200, tag: "Members" },
  {
    operation: "Query.pendingMembers",
    method: "GET",
    path: "/members/pending",
    status: 200,
    tag: "Members",
  },
  {
    operation: "Query.myMemberships",
    method: "GET",
    path: "/members/me",
    status: 200,
    tag: "Members",
  },
  {
    operation: "Query.publicMember",
    method: "GET",
    path: "/members/public/:id",
    status: 200,
    tag: "Members",
    errors: [404],
  },
  {
    operation: "Mutation.updateMemberStatus",
    method: "PATCH",
    path: "/members/:id/status",
    status: 200,
    tag: "Members",
    errors: [409],
  },
  {
    operation: "Mutation.archiveMember",
    method: "PATCH",
    path: "/members/:id/archive",
    status: 200,
    tag: "Members",
    errors: [409],
  },
  {
    operation: "Mutation.retrieveMember",
    method: "PATCH",
    path: "/members/:id/retrieve",
    status: 200,
    tag: "Members",
    errors: [409],
  },
  {
    operation: "Query.memberOffices",
    method: "GET",
    path: "/members/:id/offices",
    status: 200,
    tag: "Office holders",
  },
  {
    operation: "Query.offices",
    method: "GET",
    path: "/offices",
    status: 200,
    tag: "Office titles",
  },
  {
    operation: "Query.office",
    method: "GET",
    path: "/offices/:id",
    status: 200,
    tag: "Office titles",
  },
  {
    operation: "Mutation.createOffice",
    method: "POST",
    path: "/offices/create",
    status: 201,
    tag: "Office titles",
    errors: [409],
    example: {
      name: "City Chaplain of Cebu City",
      level: "CITY_CHAPLAIN",
      description: "Leads the chaplains of Cebu City",
      maxSlots: 1,
    },
  },
  {
    operation: "Mutation.updateOffice",
    method: "PUT",
    path: "/offices/:id",
    status: 200,
    tag: "Office titles",
    errors: [409],
    summary: "Update an office title",
    example: { description: "Leads the chaplains of Cebu City and its barangays", maxSlots: 2 },
  },
  {
    operation: "Mutation.deleteOffice",
    method: "DELETE",
    path: "/offices/:id",
    status: 204,
    tag: "Office titles",
    errors: [409],
  },
  {
    operation: "Mutation.appointOfficeHolder",
    method: "POST",
    path: "/offices/:id/holders",
    status: 201,
    tag: "Office holders",
    errors: [409],
  },
  {
    operation: "Query.officeHolders",
    method: "GET",
    path: "/offices/:id/holders",
    status: 200,
    tag: "Office holders",
  },
  {
    operation: "Mutation.endOfficeHolder",
    method: "PATCH",
    path: "/offices/:id/holders/:holderId/end",
    status: 200,
    tag: "Office holders",
    errors: [409],
  },
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
    summary: "Update a branch of service",
    example: { description: "Chaplaincy service to the soldiers and families of the Army" },
  },
  {
    operation: "Mutation.deleteBranchService",
    method: "DELETE",
    path: "/branch-service/:id",
    status: 204,
    tag: "Branch services",
    errors: [409],
  },
  { operation: "Query.auditLogs", method: "GET", path: "/audit-logs", status: 200, tag: "Audit" },
];

export function fieldOf(route: RestRoute): { kind: "Query" | "Mutation"; field: string } {
  const [kind, field] = route.operation.split(".") as ["Query" | "Mutation", string];
  return { kind, field };
}
