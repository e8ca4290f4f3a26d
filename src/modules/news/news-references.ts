import { ValidationError } from "../../errors/app-errors";
import { fileIdOf } from "../files/file-links";
import type { FileRefs, FileView } from "../files/file-refs";
import { MediaKind } from "./news.enums";
import type { MediaRecord, NewsPostRecord } from "./news.model";
import type { NewsMedia, TaggedMember } from "./news.type";

/** What news asks of member records (the members module answers). */
export interface MemberTags {
  /** APPROVED, not archived members among `ids`, by id: name and uniqueId only. */
  tagsOf(ids: readonly string[]): Promise<Map<string, TaggedMember>>;
}

export interface NewsReferencesDeps {
  files: FileRefs;
  members: MemberTags;
}

/**
 * The files and members a post names: checked and claimed on write, rendered on read (public
 * URLs, current names), each read in one call for a whole page of posts.
 */
export class NewsReferences {
  constructor(private readonly deps: () => NewsReferencesDeps) {}

  /**
   * The media list a write asks for, in its order. A ref naming a file the post already shows
   * (its id or any URL this service gave for it) is kept as it is, so any administrator may
   * edit another's post; a new one is claimed as the caller's NEWS_MEDIA upload, and must be a
   * picture or a video.
   */
  async media(adminId: string, refs: string[], current: MediaRecord[]): Promise<MediaRecord[]> {
    const { files } = this.deps();
    const shown = new Set(current.map((item) => item.fileId));
    // Each file once, in the order first asked for; its first place names it in an error.
    const firstAt = new Map<string, number>();
    const claimed: string[] = [];
    try {
      for (const [index, ref] of refs.entries()) {
        let id = fileIdOf(ref);
        if (id === null || !shown.has(id)) {
          const owner = {
            ownerId: adminId,
            purposes: ["NEWS_MEDIA"] as const,
            field: `media.${index}`,
          };
          id = await files.claim(ref.trim(), owner);
          claimed.push(id);
        }
        if (!firstAt.has(id)) firstAt.set(id, index);
      }
      const ids = [...firstAt.keys()];
      const views = await files.describe(ids, "public");
      return ids.map((fileId, sortOrder) => ({
        fileId,
        kind: kindOf(views.get(fileId), `media.${firstAt.get(fileId)}`),
        sortOrder,
      }));
    } catch (error) {
      // A refused list names nothing: what this call claimed goes back to the orphan sweep.
      if (claimed.length > 0) await files.release(claimed);
      throw error;
    }
  }

  /** Member ids, each an APPROVED member's, without repeats. */
  async tagged(ids: string[]): Promise<string[]> {
    const unique = [...new Set(ids)];
    const found = await this.deps().members.tagsOf(unique);
    const missing = ids.findIndex((id) => !found.has(id));
    if (missing >= 0)
      throw ValidationError.field(
        `taggedMembers.${missing}`,
        "taggedMembers must name APPROVED member records",
      );
    return unique;
  }

  /** The files the post no longer shows: the orphan sweep may take them. */
  async release(before: MediaRecord[], after: MediaRecord[]): Promise<void> {
    const kept = new Set(after.map((item) => item.fileId));
    const gone = before.map((item) => item.fileId).filter((id) => !kept.has(id));
    if (gone.length > 0) await this.deps().files.release(gone);
  }

  /**
   * Media views and tagged members of these posts, one call each. Media of a post that is out
   * (`isOut`) get their public URL; the others, which /files/public/{id} does not serve yet
   * (an administrator's draft), a signed link.
   */
  async viewsOf(
    posts: NewsPostRecord[],
    isOut: (post: NewsPostRecord) => boolean,
  ): Promise<PostViews> {
    const { files, members } = this.deps();
    const idsOf = (out: boolean) =>
      posts
        .filter((post) => isOut(post) === out)
        .flatMap((post) => post.media.map((m) => m.fileId));
    const memberIds = [...new Set(posts.flatMap((post) => post.taggedMemberIds))];
    const [views, out, tags] = await Promise.all([
      describeSome(files, idsOf(false), "private"),
      describeSome(files, idsOf(true), "public"),
      memberIds.length > 0 ? members.tagsOf(memberIds) : new Map<string, TaggedMember>(),
    ]);
    // A file a post that is out shows is public wherever it appears.
    for (const [id, view] of out) views.set(id, view);
    return {
      media: (post) =>
        post.media.flatMap((item) => {
          const view = views.get(item.fileId);
          return view ? [mediaOf(item, view)] : [];
        }),
      tagged: (post) => post.taggedMemberIds.flatMap((id) => tags.get(id) ?? []),
    };
  }
}

const describeSome = (files: FileRefs, ids: string[], visibility: "public" | "private") =>
  ids.length > 0 ? files.describe(ids, visibility) : Promise.resolve(new Map<string, FileView>());

export interface PostViews {
  media(post: NewsPostRecord): NewsMedia[];
  tagged(post: NewsPostRecord): TaggedMember[];
}

function kindOf(view: FileView | undefined, field: string): MediaKind {
  if (view?.mimeType.startsWith("image/")) return MediaKind.IMAGE;
  if (view?.mimeType.startsWith("video/")) return MediaKind.VIDEO;
  throw ValidationError.field(field, "media must be pictures or videos");
}

function mediaOf(item: MediaRecord, view: FileView): NewsMedia {
  return {
    id: item.fileId,
    kind: item.kind,
    fileUrl: view.fileUrl,
    fileName: view.fileName,
    sortOrder: item.sortOrder,
  };
}
