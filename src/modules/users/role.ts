import { registerEnumType } from "type-graphql";

export enum Role {
  MEMBER = "MEMBER",
  OFFICER = "OFFICER",
  ADMIN = "ADMIN",
}

registerEnumType(Role, { name: "Role", description: "What an account may do" });
