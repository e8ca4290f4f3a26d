import { NotFoundError, ValidationError } from "../../errors/app-errors";
import { pageOf, type PageResult } from "../page-result";
import type { PageArgs } from "../../graphql/paging";
import { searchableText } from "../../db/search-text";
import { uuidv7 } from "../../db/uuid";
import { cleanCaption } from "./caption-policy";
import { NewsStatus } from "./news.enums";
import type { CreateNewsArgs, UpdateNewsArgs } from "./news.input";
import type { NewsPostRecord } from "./news.model";
import type { NewsReferences, PostViews } from "./news-references";
import type { NewsChanges, NewsRepository } from "./news.repository";
import type { NewsPost } from "./news.type";
import { NO_CHANGE_FEED, type ChangeFeed } from "../webhooks/change-feed";

type Clock = () => Date;

/** News posts: administrators write, schedule and publish; the public reads what is out. */
export class NewsService {
  constructor(
    private readonly posts: NewsRepository,
    private readonly references: NewsReferences,
    private readonly now: Clock = () => new Date(),
    /** Tells the organisation's site of a change to what it shows (webhooks). */
    private readonly changes: () => ChangeFeed = () => NO_CHANGE_FEED,
  ) {}

  /** Every post, drafts and scheduled ones too, newest first (administrators). */
  async list(args: PageArgs): Promise<PageResult<NewsPost>> {
    return this.page(args, await this.posts.page(args));
  }

  /** PUBLISHED posts whose publishedAt has come, newest publishedAt first. */
  async listPublic(args: PageArgs): Promise<PageResult<NewsPost>> {
    return this.page(args, await this.posts.publicPage(args, this.now()));
  }

  async get(id: string): Promise<NewsPost> {
    return this.present(await this.found(this.posts.findById(id), id));
  }

  /** A post that is out; a draft or one still scheduled answers the same 404 as none. */
  async getPublic(id: string): Promise<NewsPost> {
    return this.present(await this.found(this.posts.findPublic(id, this.now()), id));
  }

  async create(adminId: string, args: CreateNewsArgs): Promise<NewsPost> {
    const title = args.title.trim();
    const caption = cleanCaption(args.caption ?? "");
    const hashtags = hashtagsOf(args.hashtags);
    const taggedMemberIds = await this.references.tagged(args.taggedMembers ?? []);
    const media = await this.references.media(adminId, args.media ?? [], []);
    const record = {
      _id: uuidv7(),
      title,
      caption,
      status: args.status,
      platform: args.platform?.trim() || null,
      hashtags,
      scheduledAt: args.scheduledAt ?? null,
      publishedAt: this.publishedAt(args.status, args, null),
      media,
      taggedMemberIds,
      searchText: searchTextOf(title, caption, hashtags),
    };
    let saved: NewsPostRecord;
    try {
      saved = await this.posts.insert(record);
    } catch (error) {
      await this.references.release(media, []);
      throw error;
    }
    if (isPublished(saved)) await this.changes().record("news.published", changeOf(saved));
    return this.present(saved);
  }

  async update(adminId: string, args: UpdateNewsArgs): Promise<NewsPost> {
    if (args.title === null) throw ValidationError.field("title", "title cannot be cleared");
    if (args.status === null) throw ValidationError.field("status", "status cannot be cleared");
    const current = await this.found(this.posts.findById(args.id), args.id);
    const changes: NewsChanges = {};
    if (args.title) changes.title = args.title.trim();
    if (args.caption !== undefined) changes.caption = cleanCaption(args.caption ?? "");
    if (args.platform !== undefined) changes.platform = args.platform?.trim() || null;
    if (args.hashtags !== undefined) changes.hashtags = hashtagsOf(args.hashtags);
    if (args.scheduledAt !== undefined) changes.scheduledAt = args.scheduledAt;
    if (args.status) changes.status = args.status;
    changes.publishedAt = this.publishedAt(changes.status ?? current.status, args, current);
    if (args.taggedMembers !== undefined)
      changes.taggedMemberIds = await this.references.tagged(args.taggedMembers ?? []);
    if (args.media !== undefined)
      changes.media = await this.references.media(adminId, args.media ?? [], current.media);
    if (changes.title !== undefined || changes.caption !== undefined || changes.hashtags) {
      changes.searchText = searchTextOf(
        changes.title ?? current.title,
        changes.caption ?? current.caption,
        changes.hashtags ?? current.hashtags,
      );
    }
    const updated = await this.found(this.posts.update(args.id, changes), args.id);
    if (changes.media) await this.references.release(current.media, changes.media);
    if (isPublished(updated))
      await this.changes().record(
        isPublished(current) ? "news.changed" : "news.published",
        changeOf(updated),
      );
    else if (isPublished(current)) await this.changes().record("news.changed", changeOf(updated));
    return this.present(updated);
  }

  /** Whether a post that is out shows this file: its media are public only while one does. */
  showsPublicly(fileId: string): Promise<boolean> {
    return this.posts.showsPublicly(fileId, this.now());
  }

  async delete(id: string): Promise<void> {
    const deleted = await this.found(this.posts.delete(id), id);
    await this.references.release(deleted.media, []);
    if (isPublished(deleted)) await this.changes().record("news.deleted", { id: deleted._id });
  }

  /**
   * When a post is public from: none for a draft; for a published one, the publishedAt asked
   * for, else a scheduledAt sent now, else when it already went out, else its stored
   * scheduledAt, else now.
   */
  private publishedAt(
    status: NewsStatus,
    args: Pick<CreateNewsArgs, "publishedAt" | "scheduledAt">,
    current: NewsPostRecord | null,
  ): Date | null {
    if (status !== NewsStatus.PUBLISHED) return null;
    return (
      args.publishedAt ??
      args.scheduledAt ??
      current?.publishedAt ??
      current?.scheduledAt ??
      this.now()
    );
  }

  /** What the public sees now: PUBLISHED, its publishedAt come. */
  private readonly isOut = (post: NewsPostRecord): boolean =>
    post.status === NewsStatus.PUBLISHED &&
    post.publishedAt !== null &&
    post.publishedAt <= this.now();

  private async page(
    args: PageArgs,
    found: { records: NewsPostRecord[]; total: number },
  ): Promise<PageResult<NewsPost>> {
    const views = await this.references.viewsOf(found.records, this.isOut);
    return pageOf(
      args,
      found.records.map((record) => postOf(record, views)),
      found.total,
    );
  }

  private async present(record: NewsPostRecord): Promise<NewsPost> {
    return postOf(record, await this.references.viewsOf([record], this.isOut));
  }

  private async found<T>(pending: Promise<T | null>, id: string): Promise<T> {
    const record = await pending;
    if (!record) throw new NotFoundError(`No news post with id ${id}`);
    return record;
  }
}

function postOf(record: NewsPostRecord, views: PostViews): NewsPost {
  return {
    id: record._id,
    title: record.title,
    caption: record.caption,
    status: record.status,
    platform: record.platform,
    hashtags: record.hashtags,
    scheduledAt: record.scheduledAt,
    publishedAt: record.publishedAt,
    media: views.media(record),
    taggedMembers: views.tagged(record),
    createdAt: record.createdAt,
    updatedAt: record.updatedAt,
  };
}

/** Trimmed, without blanks or repeats. */
function hashtagsOf(hashtags: string[] | null | undefined): string[] {
  return [...new Set((hashtags ?? []).map((tag) => tag.trim()).filter(Boolean))];
}

const ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', "#39": "'" };

/** The caption's words without its tags, so a search never matches markup. */
function searchTextOf(title: string, caption: string, hashtags: string[]): string {
  const text = caption
    .replace(/<[^>]*>/g, " ")
    .replace(/&(amp|lt|gt|quot|#39);/g, (_all, name: string) => ENTITIES[name])
    .replace(/\s+/g, " ");
  return searchableText(title, text, hashtags.join(" "));
}

const isPublished = (post: NewsPostRecord) => post.status === NewsStatus.PUBLISHED;

/** What a news change tells the site: fields of its public page. */
function changeOf(post: NewsPostRecord) {
  return {
    id: post._id,
    title: post.title,
    status: post.status,
    publishedAt: post.publishedAt?.toISOString() ?? null,
  };
}
