import type { Readable } from "node:stream";
import {
  CreateBucketCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadBucketCommand,
  ListObjectsV2Command,
  NoSuchKey,
  S3Client,
} from "@aws-sdk/client-s3";
import { Upload } from "@aws-sdk/lib-storage";
import { assertSafeKey, ObjectNotFoundError, type ObjectStorage } from "./object-storage";

export interface S3StorageOptions {
  bucket: string;
  endpoint?: string;
  region: string;
  accessKeyId?: string;
  secretAccessKey?: string;
  forcePathStyle: boolean;
}

/**
 * Files in a bucket of any S3-compatible server (`s3://<bucket>`), which every replica shares.
 * Uploads stream in parts (lib-storage), so memory holds a few parts, never the whole file;
 * a failed upload is aborted, leaving no object. The bucket is made on first use if missing.
 */
export class S3Storage implements ObjectStorage {
  private readonly client: S3Client;
  private ready: Promise<void> | null = null;

  constructor(private readonly options: S3StorageOptions) {
    this.client = new S3Client({
      region: options.region,
      endpoint: options.endpoint,
      forcePathStyle: options.forcePathStyle,
      credentials:
        options.accessKeyId && options.secretAccessKey
          ? { accessKeyId: options.accessKeyId, secretAccessKey: options.secretAccessKey }
          : undefined,
    });
  }

  async put(key: string, body: Readable): Promise<void> {
    assertSafeKey(key);
    await this.bucket();
    const upload = new Upload({
      client: this.client,
      params: { Bucket: this.options.bucket, Key: key, Body: body },
      // The SDK's smallest part size: uploads up to FILE_MAX_BYTES go in one request.
      partSize: 5 * 1024 * 1024,
      queueSize: 1,
      leavePartsOnError: false,
    });
    // A body that fails or is destroyed mid-way must fail the upload, not end it short.
    const failed = new Promise<never>((_, reject) => {
      body.once("error", (error) => {
        void upload.abort().catch(() => undefined);
        reject(error);
      });
    });
    try {
      await Promise.race([upload.done(), failed]);
    } catch (error) {
      await this.delete(key).catch(() => undefined);
      throw error;
    }
  }

  async get(key: string): Promise<Readable> {
    assertSafeKey(key);
    try {
      const answer = await this.client.send(
        new GetObjectCommand({ Bucket: this.options.bucket, Key: key }),
      );
      return answer.Body as Readable;
    } catch (error) {
      if (error instanceof NoSuchKey || statusOf(error) === 404) throw new ObjectNotFoundError(key);
      throw error;
    }
  }

  async delete(key: string): Promise<void> {
    assertSafeKey(key);
    await this.client.send(new DeleteObjectCommand({ Bucket: this.options.bucket, Key: key }));
  }

  async *keys(): AsyncIterable<string> {
    let token: string | undefined;
    do {
      const page = await this.client.send(
        new ListObjectsV2Command({ Bucket: this.options.bucket, ContinuationToken: token }),
      );
      for (const object of page.Contents ?? []) if (object.Key) yield object.Key;
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
  }

  close(): Promise<void> {
    this.client.destroy();
    return Promise.resolve();
  }

  private bucket(): Promise<void> {
    this.ready ??= this.ensureBucket().catch((error: unknown) => {
      this.ready = null;
      throw error;
    });
    return this.ready;
  }

  private async ensureBucket(): Promise<void> {
    const Bucket = this.options.bucket;
    try {
      await this.client.send(new HeadBucketCommand({ Bucket }));
    } catch (error) {
      if (statusOf(error) !== 404) throw error;
      await this.client.send(new CreateBucketCommand({ Bucket }));
    }
  }
}

const statusOf = (error: unknown) =>
  (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
