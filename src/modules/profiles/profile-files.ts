import type { FilePurpose, FileRefs } from "../files/file-refs";
import type { ProfileMembers } from "./profile-ports";

export interface ProfileFilesDeps {
  files: FileRefs;
  members: ProfileMembers;
}

/**
 * The files a member's page names (certificates, record pictures, the banner). A member may show
 * one upload in several places, so a file goes back to the orphan sweep only once none of them
 * names it any more.
 */
export class ProfileFiles {
  constructor(
    private readonly deps: () => ProfileFilesDeps,
    /** Which of these files the account's certificates or records still name. */
    private readonly namedAmong: (
      userId: string,
      fileIds: readonly string[],
    ) => Promise<Set<string>>,
  ) {}

  /** The caller's own upload of one of `purposes`, by id or fileUrl; else a 400 on `field`. */
  claim(userId: string, ref: string, purposes: readonly FilePurpose[], field: string) {
    return this.deps().files.claim(ref.trim(), { ownerId: userId, purposes, field });
  }

  /** Files an edit stopped naming: released unless something else of the page names them. */
  async release(userId: string, fileIds: readonly string[]): Promise<void> {
    const candidates = [...new Set(fileIds)];
    if (candidates.length === 0) return;
    const [named, banner] = await Promise.all([
      this.namedAmong(userId, candidates),
      this.deps().members.bannerAmong(userId, candidates),
    ]);
    const unnamed = candidates.filter((id) => !named.has(id) && !banner.has(id));
    if (unnamed.length > 0) await this.deps().files.release(unnamed);
  }
}
