import { registerEnumType } from "type-graphql";

export enum MemberStatus {
  PENDING = "PENDING",
  APPROVED = "APPROVED",
  REJECTED = "REJECTED",
}

export enum CivilStatus {
  SINGLE = "SINGLE",
  MARRIED = "MARRIED",
  WIDOWED = "WIDOWED",
  SEPARATED = "SEPARATED",
  ANNULLED = "ANNULLED",
}

export enum Gender {
  MALE = "MALE",
  FEMALE = "FEMALE",
  PREFER_NOT_TO_SAY = "PREFER_NOT_TO_SAY",
}

export enum SignatureType {
  DRAWN = "DRAWN",
}

registerEnumType(MemberStatus, {
  name: "MemberStatus",
  description: "Where an application stands",
});
registerEnumType(CivilStatus, { name: "CivilStatus" });
registerEnumType(Gender, { name: "Gender" });
registerEnumType(SignatureType, { name: "SignatureType", description: "How a signature was made" });
