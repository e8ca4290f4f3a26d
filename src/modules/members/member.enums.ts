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

/** What kind of chaplain a member is (set at the oath; the service chaplains' list reads it). */
export enum MemberType {
  ASSOCIATE_CHAPLAIN = "ASSOCIATE_CHAPLAIN",
  PROFESSIONAL_CHAPLAIN = "PROFESSIONAL_CHAPLAIN",
  ORDAINED_AND_COMMISSIONED_PRACTITIONER = "ORDAINED_AND_COMMISSIONED_PRACTITIONER",
  CERTIFIED_SPECIALIST_TRAINING_OFFICER_INSTRUCTOR = "CERTIFIED_SPECIALIST_TRAINING_OFFICER_INSTRUCTOR",
}

registerEnumType(MemberStatus, {
  name: "MemberStatus",
  description: "Where an application stands",
});
registerEnumType(CivilStatus, { name: "CivilStatus" });
registerEnumType(Gender, { name: "Gender" });
registerEnumType(SignatureType, { name: "SignatureType", description: "How a signature was made" });
registerEnumType(MemberType, {
  name: "MemberType",
  description: "What kind of chaplain a member is",
});
