import { Schema, type Connection, type Model } from "mongoose";
import { changeStamped } from "../../db/change-stamps";
import { uuidv7 } from "../../db/uuid";
import { MediaKind, NewsStatus } from "./news.enums";

/** A NEWS_MEDIA file the post shows; name and URL come from the files module on read. */
export interface MediaRecord {
  fileId: string;
  kind: MediaKind;
  sortOrder: number;
}

export interface NewsPostRecord {
  _id: string;
  title: string;
  /** HTML, cleaned on write (caption-policy.ts). */
  caption: string;
  status: NewsStatus;
  platform: string | null;
  hashtags: string[];
  /** When the post is planned to go out. */
  scheduledAt: Date | null;
  /** Set while PUBLISHED: the post is public from then on (a future one stays hidden). */
  publishedAt: Date | null;
  media: MediaRecord[];
  /** Member record ids; their name and uniqueId are read on each answer. */
  taggedMemberIds: string[];
  /** Title, caption text and hashtags, for `search` (src/db/search-text.ts). */
  searchText: string;
  createdAt: Date;
  updatedAt: Date;
}

const mediaSchema = new Schema<MediaRecord>(
  {
    fileId: { type: String, required: true },
    kind: { type: String, enum: Object.values(MediaKind), required: true },
    sortOrder: { type: Number, required: true },
  },
  { _id: false },
);

const newsPostSchema = new Schema<NewsPostRecord>(
  {
    _id: { type: String, default: () => uuidv7() },
    title: { type: String, required: true },
    caption: { type: String, default: "" },
    status: { type: String, enum: Object.values(NewsStatus), required: true },
    platform: { type: String, default: null },
    hashtags: { type: [String], default: [] },
    scheduledAt: { type: Date, default: null },
    publishedAt: { type: Date, default: null },
    media: { type: [mediaSchema], default: [] },
    taggedMemberIds: { type: [String], default: [] },
    searchText: { type: String, required: true },
  },
  { timestamps: true, versionKey: false },
);
// The administrators' list: newest first, ids (UUID v7) breaking ties.
newsPostSchema.index({ createdAt: -1, _id: -1 });
/*
 * The public list and detail: status pinned, publishedAt bounded by now, and the order newest
 * publishedAt first: one index gives the filter's prefix and the sort.
 */
newsPostSchema.index({ status: 1, publishedAt: -1, _id: -1 });
newsPostSchema.index({ searchText: 1 });
// Whether a post that is out shows a file (/files/public/{id}).
newsPostSchema.index({ "media.fileId": 1 });

export type NewsPostModel = Model<NewsPostRecord>;

// Public reads are made of this collection: every write changes their ETag, and so does a
// scheduled post's publishedAt once it has come (no write marks that moment).
newsPostSchema.plugin(changeStamped, {
  source: "news_posts",
  due: { filter: { status: NewsStatus.PUBLISHED }, field: "publishedAt" },
});

export function createNewsPostModel(connection: Connection): NewsPostModel {
  return connection.model<NewsPostRecord>("NewsPost", newsPostSchema, "news_posts");
}
