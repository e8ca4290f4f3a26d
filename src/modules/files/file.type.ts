import { Field, ID, Int, ObjectType, registerEnumType } from "type-graphql";
import { DateTimeScalar } from "../../graphql/date-time";
import { PageType } from "../../graphql/envelopes";
import type { FileView } from "./file-refs";

/** The purposes as a GraphQL enum (the port's union, spelled out once for the schema). */
export enum FilePurposeEnum {
  REQUIREMENT = "REQUIREMENT",
  PAYMENT_PROOF = "PAYMENT_PROOF",
  PROMISSORY_NOTE = "PROMISSORY_NOTE",
  AVATAR = "AVATAR",
  EVENT_IMAGE = "EVENT_IMAGE",
  NEWS_MEDIA = "NEWS_MEDIA",
  CERTIFICATE = "CERTIFICATE",
  PUBLIC_RECORD = "PUBLIC_RECORD",
  GENERATED = "GENERATED",
}
registerEnumType(FilePurposeEnum, {
  name: "FilePurpose",
  description: "Why a file was uploaded; GENERATED: rendered by the service itself",
});

@ObjectType("StoredFile", {
  simpleResolvers: true,
  description: "A stored file's record; its bytes are read at fileUrl (not through GraphQL)",
})
export class StoredFile {
  @Field(() => ID)
  id!: string;

  @Field({
    description:
      "A link signed for FILE_LINK_TTL_SECONDS that works without a Bearer, rendered on every read",
  })
  fileUrl!: string;

  @Field({ description: "The uploaded name, reduced to a safe base name" })
  fileName!: string;

  @Field({
    description: "Decided by the file's bytes: application/pdf, image/jpeg, image/png, image/webp",
  })
  mimeType!: string;

  @Field(() => Int)
  size!: number;

  @Field({ description: "SHA-256 of the bytes, hex" })
  sha256!: string;

  @Field(() => FilePurposeEnum)
  purpose!: FilePurposeEnum;

  @Field(() => DateTimeScalar)
  createdAt!: Date;

  static from(view: FileView): StoredFile {
    return Object.assign(new StoredFile(), {
      id: view.id,
      fileUrl: view.fileUrl,
      fileName: view.fileName,
      mimeType: view.mimeType,
      size: view.size,
      sha256: view.sha256,
      purpose: view.purpose as FilePurposeEnum,
      createdAt: view.createdAt,
    });
  }
}

export const StoredFilePage = PageType(StoredFile, "StoredFilePage");
