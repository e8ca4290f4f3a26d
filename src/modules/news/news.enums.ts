import { registerEnumType } from "type-graphql";

export enum NewsStatus {
  DRAFT = "DRAFT",
  PUBLISHED = "PUBLISHED",
}

export enum MediaKind {
  IMAGE = "IMAGE",
  VIDEO = "VIDEO",
}

registerEnumType(NewsStatus, {
  name: "NewsStatus",
  description: "PUBLISHED posts are public once their publishedAt has come",
});
registerEnumType(MediaKind, { name: "MediaKind", description: "From the file's type" });
