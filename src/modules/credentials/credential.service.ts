import { isDuplicateKeyError } from "../../db/errors";
import { uuidv7 } from "../../db/uuid";
import { ConflictError } from "../../errors/app-errors";
import type { FileRefs } from "../files/file-refs";
import type {
  CredentialFacts,
  CurrentRecord,
  OnboardingFacts,
} from "../onboarding/onboarding-facts";
import { renderCertificate } from "./certificate.render";
import { memberTypeLabel, profileUrlOf } from "./credential-text";
import type { CredentialRecord } from "./credential.model";
import type { CredentialRepository, RenderedAssets } from "./credential.repository";
import { CredentialAsset, CredentialExport, IdGeneration } from "./credential.type";
import { renderIdCard } from "./id-card.render";
import { renderQrPng } from "./qr-code.render";

export interface CredentialDeps {
  onboarding: () => OnboardingFacts;
  files: () => FileRefs;
  /** The titles of the offices a member record holds now (offices module). */
  currentOffices: (memberId: string) => Promise<{ title: string }[]>;
  appUrl: string;
  /** Printed on the card and the certificate. */
  organisation: string;
}

/** The ID card, certificate and QR code, rendered by the service (contract §11, ID generation). */
export class CredentialService implements CredentialFacts {
  constructor(
    private readonly repository: CredentialRepository,
    private readonly deps: CredentialDeps,
  ) {}

  /** The caller's uniqueId and rendered assets; null without an application. */
  async currentOf(userId: string): Promise<IdGeneration | null> {
    const record = await this.deps.onboarding().currentRecord(userId);
    if (!record) return null;
    const stored = await this.repository.ofMember(record.memberId);
    return this.view(record.uniqueId, stored);
  }

  /** Renders (again) once the payment is verified; earlier renders are released. */
  async generate(userId: string, now = new Date()): Promise<IdGeneration> {
    const onboarding = this.deps.onboarding();
    const record = await onboarding.currentRecord(userId);
    if (!record || record.status !== "APPROVED" || !record.uniqueId) {
      throw new ConflictError("Only an approved membership has an ID card to generate");
    }
    if (!(await onboarding.paymentVerified(record.memberId))) {
      throw new ConflictError(
        "Your membership payment has not been verified yet; the ID card follows its verification",
      );
    }
    const photoId = await onboarding.photo2x2(record.memberId);
    if (!photoId) throw new ConflictError("Upload your 2x2 photo first");
    const assets = await this.render(record, record.uniqueId, photoId, now);
    const previous = await this.store(record.memberId, assets);
    if (previous) {
      await this.deps
        .files()
        .release([previous.qrCodeFileId, previous.certificateFileId, previous.idCardFileId]);
    }
    return this.view(record.uniqueId, { ...assets, memberId: record.memberId } as CredentialRecord);
  }

  /** CredentialFacts: when the member's assets were last rendered. */
  async ofMember(memberId: string) {
    const stored = await this.repository.ofMember(memberId);
    return (
      stored && { generatedAt: stored.generatedAt, certificateFileId: stored.certificateFileId }
    );
  }

  async exportOf(userId: string): Promise<CredentialExport[]> {
    return (await this.repository.ofUser(userId)).map((record) => CredentialExport.from(record));
  }

  /** Erasure: the records go; the files module deletes the files the account owns. */
  eraseOf(userId: string): Promise<void> {
    return this.repository.deleteOfUser(userId);
  }

  private async render(
    record: CurrentRecord,
    uniqueId: string,
    photoId: string,
    now: Date,
  ): Promise<RenderedAssets> {
    const files = this.deps.files();
    const profileUrl = profileUrlOf(this.deps.appUrl, uniqueId);
    const [qrPng, photo, offices] = await Promise.all([
      renderQrPng(profileUrl),
      files.read(photoId),
      this.deps.currentOffices(record.memberId),
    ]);
    const common = {
      organisation: this.deps.organisation,
      fullName: record.fullName,
      uniqueId,
      qrPng,
      profileUrl,
    };
    const [certificate, idCard] = await Promise.all([
      renderCertificate({ ...common, issuedAt: now }),
      renderIdCard({
        ...common,
        memberType: memberTypeLabel(record.memberType),
        officeTitles: offices.map((office) => office.title),
        photo,
        validSince: record.approvedAt ?? now,
      }),
    ]);
    const store = (fileName: string, mimeType: string, bytes: Buffer) =>
      files.storeGenerated({ ownerId: record.userId, fileName, mimeType, bytes });
    const [qr, cert, card] = await Promise.all([
      store(`qr-${uniqueId}.png`, "image/png", qrPng),
      store(`certificate-${uniqueId}.pdf`, "application/pdf", certificate),
      store(`id-card-${uniqueId}.pdf`, "application/pdf", idCard),
    ]);
    return {
      userId: record.userId,
      uniqueId,
      qrCodeFileId: qr.id,
      certificateFileId: cert.id,
      idCardFileId: card.id,
      generatedAt: now,
    };
  }

  /** A first render racing another of the same member: the second one replaces the first. */
  private async store(memberId: string, assets: RenderedAssets): Promise<CredentialRecord | null> {
    try {
      return await this.repository.replace(memberId, uuidv7(), assets);
    } catch (error) {
      if (!isDuplicateKeyError(error)) throw error;
      return this.repository.replace(memberId, uuidv7(), assets);
    }
  }

  private async view(
    uniqueId: string | null,
    stored: CredentialRecord | null,
  ): Promise<IdGeneration> {
    if (!stored) return Object.assign(new IdGeneration(), { uniqueId, asset: null });
    const ids = [stored.qrCodeFileId, stored.certificateFileId, stored.idCardFileId];
    // The member's own credentials: the links are rendered for their owner.
    const views = await this.deps.files().describe(ids, "private");
    const urlOf = (id: string) => views.get(id)?.fileUrl ?? "";
    const asset = Object.assign(new CredentialAsset(), {
      profileUrl: profileUrlOf(this.deps.appUrl, stored.uniqueId),
      qrCodeUrl: urlOf(stored.qrCodeFileId),
      certificateUrl: urlOf(stored.certificateFileId),
      idCardUrl: urlOf(stored.idCardFileId),
      generatedAt: stored.generatedAt,
    });
    return Object.assign(new IdGeneration(), { uniqueId, asset });
  }
}
