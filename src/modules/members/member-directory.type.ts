import { Field, Float, Int, ObjectType } from "type-graphql";
import { PayloadType } from "../../graphql/envelopes";

@ObjectType("DirectoryBarangay", { simpleResolvers: true })
export class DirectoryBarangay {
  @Field() barangay!: string;
  @Field(() => Int) memberCount!: number;
}

@ObjectType("DirectoryMunicipality", { simpleResolvers: true })
export class DirectoryMunicipality {
  @Field() municipalityCity!: string;
  @Field(() => Int) memberCount!: number;
  @Field(() => Int) barangayCount!: number;
  @Field(() => [DirectoryBarangay]) barangays!: DirectoryBarangay[];
}

@ObjectType("DirectoryProvince", { simpleResolvers: true })
export class DirectoryProvince {
  @Field() province!: string;
  @Field(() => Int) memberCount!: number;
  @Field(() => Int) municipalityCount!: number;
  @Field(() => Int) barangayCount!: number;
  @Field(() => [DirectoryMunicipality]) municipalities!: DirectoryMunicipality[];
}

@ObjectType("DirectoryRegion", { simpleResolvers: true })
export class DirectoryRegion {
  @Field() region!: string;
  @Field(() => Int) memberCount!: number;
  @Field(() => Int) provinceCount!: number;
  @Field(() => Int) municipalityCount!: number;
  @Field(() => Int) barangayCount!: number;
  @Field(() => [DirectoryProvince]) provinces!: DirectoryProvince[];
}

@ObjectType("DirectorySummary", { simpleResolvers: true })
export class DirectorySummary {
  @Field(() => Int, { description: "APPROVED members that are not archived" })
  totalMembers!: number;
  @Field(() => Int) membersWithRegion!: number;
  @Field(() => Int) regionsRepresented!: number;
  @Field(() => Int) provincesRepresented!: number;
  @Field(() => Int) municipalitiesRepresented!: number;
  @Field(() => Int) barangaysRepresented!: number;
}

@ObjectType("Headquarters", { simpleResolvers: true })
export class HeadquartersView {
  @Field() name!: string;
  @Field() address!: string;
  @Field(() => Float) latitude!: number;
  @Field(() => Float) longitude!: number;
}

@ObjectType("DirectoryLocations", {
  simpleResolvers: true,
  description: "Where the organisation's approved members are, counted by place",
})
export class DirectoryLocations {
  @Field(() => DirectorySummary) summary!: DirectorySummary;
  @Field(() => HeadquartersView) headquarters!: HeadquartersView;
  @Field(() => [DirectoryRegion]) regionLocations!: DirectoryRegion[];
}

export const DirectoryLocationsPayload = PayloadType(
  DirectoryLocations,
  "DirectoryLocationsPayload",
);
