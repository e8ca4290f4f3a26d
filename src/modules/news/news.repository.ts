import { findPage, type FoundPage, type PageWindow } from "../../db/page-query";
import { searchFilter } from "../../db/search-text";
import { atMost } from "../../db/operators";
import { NewsStatus } from "./news.enums";
import type { NewsPostModel, NewsPostRecord } from "./news.model";

export type NewsChanges = Partial<Omit<NewsPostRecord, "_id" | "createdAt" | "updatedAt">>;

type Search = PageWindow & { search?: string | null };

/** What the public sees at `now`: PUBLISHED posts whose publishedAt has come. */
const visibleAt = (now: Date) => ({ status: NewsStatus.PUBLISHED, publishedAt: atMost(now) });

/** Every database call on news posts. */
export class NewsRepository {
  constructor(private readonly posts: NewsPostModel) {}

  /** Every post, newest first. */
  page(query: Search): Promise<FoundPage<NewsPostRecord>> {
    return findPage(this.posts, searchFilter(query.search), { createdAt: -1, _id: -1 }, query);
  }

  /** Public posts, newest publishedAt first: one index range, in the index's order. */
  publicPage(query: Search, now: Date): Promise<FoundPage<NewsPostRecord>> {
    const filter = { ...visibleAt(now), ...searchFilter(query.search) };
    return findPage(this.posts, filter, { publishedAt: -1, _id: -1 }, query);
  }

  findById(id: string): Promise<NewsPostRecord | null> {
    return this.posts.findById(id).lean<NewsPostRecord>().exec();
  }

  findPublic(id: string, now: Date): Promise<NewsPostRecord | null> {
    return this.posts
      .findOne({ _id: id, ...visibleAt(now) })
      .lean<NewsPostRecord>()
      .exec();
  }

  /** Whether a post the public sees at `now` shows this file (its media are public while one does). */
  async showsPublicly(fileId: string, now: Date): Promise<boolean> {
    const found = await this.posts.exists({ "media.fileId": fileId, ...visibleAt(now) }).exec();
    return found !== null;
  }

  async insert(record: Omit<NewsPostRecord, "createdAt" | "updatedAt">): Promise<NewsPostRecord> {
    return (await this.posts.create(record)).toObject();
  }

  update(id: string, changes: NewsChanges): Promise<NewsPostRecord | null> {
    return this.posts
      .findByIdAndUpdate(id, { $set: changes }, { returnDocument: "after", runValidators: true })
      .lean<NewsPostRecord>()
      .exec();
  }

  /** The deleted post, or null when there was none. */
  delete(id: string): Promise<NewsPostRecord | null> {
    return this.posts.findOneAndDelete({ _id: id }).lean<NewsPostRecord>().exec();
  }
}
