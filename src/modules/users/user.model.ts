import { Schema, type Connection, type Model } from "mongoose";
import { uuidv7 } from "../../db/uuid";
import { Role } from "./role";

export interface UserRecord {
  _id: string;
  name: string;
  email: string;
  passwordHash: string;
  avatar: string | null;
  role: Role;
  isEmailVerified: boolean;
  createdAt: Date;
  updatedAt: Date;
}

const userSchema = new Schema<UserRecord>(
  {
    _id: { type: String, default: () => uuidv7() },
    name: { type: String, required: true },
    email: { type: String, required: true, unique: true },
    passwordHash: { type: String, required: true },
    avatar: { type: String, default: null },
    role: { type: String, enum: Object.values(Role), required: true, default: Role.MEMBER },
    isEmailVerified: { type: Boolean, required: true, default: false },
  },
  { timestamps: true, versionKey: false },
);
userSchema.index({ createdAt: -1 });

export type UserModel = Model<UserRecord>;

export function createUserModel(connection: Connection): UserModel {
  return connection.model<UserRecord>("User", userSchema, "users");
}
