import { ValidationError } from "../../errors/app-errors";
import type { Caller } from "../auth/caller";
import type { FilePurpose, FileRefs } from "../files/file-refs";
import type { OrganisationRepository } from "./organisation.repository";
import type {
  OrganisationIdentity,
  OrganisationSettings,
  OrganisationSettingsArgs,
} from "./organisation.type";

/** Uploads that may hold the seal: an administrator's images. */
const IMAGE_PURPOSES: readonly FilePurpose[] = [
  "EVENT_IMAGE",
  "NEWS_MEDIA",
  "AVATAR",
  "PUBLIC_RECORD",
];
/** What pdf-lib can draw on a credential. */
const SEAL_TYPES = ["image/png", "image/jpeg"];

/** The port credentials and mail read the organisation through. */
export interface OrganisationSource {
  identity(): Promise<OrganisationIdentity>;
  /** The seal's bytes, or null when none is set. */
  sealOf(identity: OrganisationIdentity): Promise<Buffer | null>;
}

/**
 * The organisation's identity: a fresh database prints the ORG_* defaults; an administrator's
 * save replaces them as a whole. Rendered files keep what they printed: nothing here re-renders.
 */
export class OrganisationService implements OrganisationSource {
  constructor(
    private readonly repository: OrganisationRepository,
    private readonly defaults: OrganisationIdentity,
    private readonly files: () => FileRefs,
  ) {}

  async settings(): Promise<OrganisationSettings> {
    const stored = await this.repository.stored();
    return { ...(stored ? pick(stored) : this.defaults), updatedAt: stored?.updatedAt ?? null };
  }

  async identity(): Promise<OrganisationIdentity> {
    const stored = await this.repository.stored();
    return stored ? pick(stored) : this.defaults;
  }

  async sealOf(identity: OrganisationIdentity): Promise<Buffer | null> {
    if (!identity.sealFileId) return null;
    try {
      return await this.files().read(identity.sealFileId);
    } catch {
      // A seal whose file is gone (its owner erased) is left off rather than refusing to print.
      return null;
    }
  }

  async update(caller: Caller, args: OrganisationSettingsArgs): Promise<OrganisationSettings> {
    const files = this.files();
    const sealFileId = args.sealFileId
      ? await files.claim(args.sealFileId, {
          ownerId: caller.id,
          purposes: IMAGE_PURPOSES,
          field: "sealFileId",
        })
      : null;
    if (sealFileId) {
      const view = (await files.describe([sealFileId], "private")).get(sealFileId);
      if (!view || !SEAL_TYPES.includes(view.mimeType)) {
        const previous = await this.repository.stored();
        if (previous?.sealFileId !== sealFileId) await files.release([sealFileId]);
        throw ValidationError.field("sealFileId", "sealFileId must be a PNG or JPEG image");
      }
    }
    const fields = {
      name: args.name.trim(),
      shortName: args.shortName.trim(),
      address: args.address.trim(),
      email: args.email.trim(),
      phone: args.phone.trim(),
      website: args.website.trim(),
      sealFileId,
      signatoryName: args.signatoryName.trim(),
      signatoryTitle: args.signatoryTitle.trim(),
    };
    const previous = await this.repository.save({ ...fields, updatedBy: caller.id });
    if (previous?.sealFileId && previous.sealFileId !== sealFileId) {
      await files.release([previous.sealFileId]);
    }
    return { ...fields, updatedAt: new Date() };
  }
}

function pick(record: OrganisationIdentity): OrganisationIdentity {
  return {
    name: record.name,
    shortName: record.shortName,
    address: record.address,
    email: record.email,
    phone: record.phone,
    website: record.website,
    sealFileId: record.sealFileId,
    signatoryName: record.signatoryName,
    signatoryTitle: record.signatoryTitle,
  };
}
