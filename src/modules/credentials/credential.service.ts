import { ConflictError } from "../../errors/app-errors";
import type { FileRefs } from "../files/file-refs";
import type { OrganisationSource } from "../organisation/organisation.service";
import type {
  CredentialFacts,
  CurrentRecord,
  OnboardingFacts,
} from "../onboarding/onboarding-facts";
import { renderCertificate } from "./certificate.render";
import { publicProfileUrl } from "../members/public-url";
import { memberTypeLabel } from "./credential-text";
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
  /** The end of the member's membership year, or null before the oath (membership module). */
  validUntil: (memberId: string) => Promise<Date | null>;
  /** The organisation as it stands now: printed on what is rendered now. */
  organisation: () => OrganisationSource;
  appUrl: string;
}

const NOT_APPROVED = "Only an approved membership has an ID card to generate";

/**
 * The ID card, certificate and QR code, rendered by the service. The card is printed from the
 * APPROVED 2x2 photo at the ID step and again when the year changes; the certificate is issued
 * at the oath, dated its day. Each render is a new set of files: what was issued keeps what it
 * printed.
 */
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

  /**
   * Renders (again) once the payment is verified: the card, and after the oath the
   * certificate too; earlier renders are released.
   */
  async generate(userId: string): Promise<IdGeneration> {
    const onboarding = this.deps.onboarding();
    const record = await onboarding.currentRecord(userId);
    if (!record || record.status !== "APPROVED" || !record.uniqueId) {
      throw new ConflictError(NOT_APPROVED);
    }
    if (!(await onboarding.paymentVerified(record.memberId))) {
      throw new ConflictError(
        "Your membership payment has not been verified yet; the ID card follows its verification",
      );
    }
    const oathDay = await onboarding.oathDay(record.memberId);
    const stored = await this.renderAndStore(record, { certificateOn: oathDay });
    return this.view(record.uniqueId, stored);
  }

  /** CredentialFacts: at the oath, the certificate and the card with its "valid until". */
  async issueAtOath(memberId: string): Promise<Buffer> {
    const onboarding = this.deps.onboarding();
    const [record, oathDay] = await Promise.all([
      onboarding.recordById(memberId),
      onboarding.oathDay(memberId),
    ]);
    if (!record?.uniqueId || !oathDay) throw new ConflictError("The oath is not recorded");
    const stored = await this.renderAndStore(record, { certificateOn: oathDay });
    return this.deps.files().read(stored.certificateFileId!);
  }

  /** A renewed year: the card printed again with its new end; the certificate stays. */
  async renewCard(memberId: string): Promise<void> {
    const record = await this.deps.onboarding().recordById(memberId);
    if (!record?.uniqueId || !(await this.repository.ofMember(memberId))) return;
    await this.renderAndStore(record, { certificateOn: null });
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

  /**
   * Renders the card (and the certificate when `certificateOn` is the oath's day), stores
   * the files, names them on the record and releases the ones they replace.
   */
  private async renderAndStore(
    record: CurrentRecord,
    { certificateOn }: { certificateOn: Date | null },
  ): Promise<CredentialRecord> {
    const uniqueId = record.uniqueId!;
    const onboarding = this.deps.onboarding();
    const photoId = await onboarding.approvedPhoto2x2(record.memberId);
    if (!photoId) {
      const submitted = await onboarding.photo2x2(record.memberId);
      throw new ConflictError(
        submitted
          ? "Your 2x2 photo has not been APPROVED yet: the ID card is printed only from an approved 2x2 photo"
          : "Upload your 2x2 photo first",
      );
    }
    const files = this.deps.files();
    const organisation = this.deps.organisation();
    const profileUrl = publicProfileUrl(this.deps.appUrl, uniqueId);
    const identity = await organisation.identity();
    const [qrPng, photo, offices, validUntil, seal, previous] = await Promise.all([
      renderQrPng(profileUrl),
      files.read(photoId),
      this.deps.currentOffices(record.memberId),
      this.deps.validUntil(record.memberId),
      organisation.sealOf(identity),
      this.repository.ofMember(record.memberId),
    ]);
    const common = {
      organisation: identity,
      seal,
      fullName: record.fullName,
      uniqueId,
      qrPng,
      profileUrl,
      memberType: memberTypeLabel(record.memberType),
    };
    const [idCard, certificate] = await Promise.all([
      renderIdCard({
        ...common,
        officeTitles: offices.map((office) => office.title),
        photo,
        validUntil,
      }),
      certificateOn ? renderCertificate({ ...common, oathDay: certificateOn, validUntil }) : null,
    ]);
    const store = (fileName: string, mimeType: string, bytes: Buffer) =>
      files.storeGenerated({ ownerId: record.userId, fileName, mimeType, bytes });
    const [qr, card, cert] = await Promise.all([
      store(`qr-${uniqueId}.png`, "image/png", qrPng),
      store(`id-card-${uniqueId}.pdf`, "application/pdf", idCard),
      certificate && store(`certificate-${uniqueId}.pdf`, "application/pdf", certificate),
    ]);
    const assets: RenderedAssets = {
      userId: record.userId,
      uniqueId,
      qrCodeFileId: qr.id,
      idCardFileId: card.id,
      // A card printed again keeps the certificate already issued.
      certificateFileId: cert?.id ?? previous?.certificateFileId ?? null,
      validUntil,
      generatedAt: new Date(),
    };
    const replaced = await this.repository.replace(record.memberId, assets);
    if (replaced) {
      const kept = new Set([assets.qrCodeFileId, assets.idCardFileId, assets.certificateFileId]);
      const released = [
        replaced.qrCodeFileId,
        replaced.idCardFileId,
        replaced.certificateFileId,
      ].filter((id): id is string => id !== null && !kept.has(id));
      if (released.length > 0) await files.release(released);
    }
    return { ...assets, _id: replaced?._id ?? "", memberId: record.memberId } as CredentialRecord;
  }

  private async view(
    uniqueId: string | null,
    stored: CredentialRecord | null,
  ): Promise<IdGeneration> {
    if (!stored) return Object.assign(new IdGeneration(), { uniqueId, asset: null });
    const ids = [stored.qrCodeFileId, stored.idCardFileId, stored.certificateFileId].filter(
      (id): id is string => id !== null,
    );
    // The member's own credentials: the links are rendered for their owner.
    const views = await this.deps.files().describe(ids, "private");
    const urlOf = (id: string | null) => (id ? (views.get(id)?.fileUrl ?? null) : null);
    const asset = Object.assign(new CredentialAsset(), {
      profileUrl: publicProfileUrl(this.deps.appUrl, stored.uniqueId),
      qrCodeUrl: urlOf(stored.qrCodeFileId) ?? "",
      certificateUrl: urlOf(stored.certificateFileId),
      idCardUrl: urlOf(stored.idCardFileId) ?? "",
      validUntil: stored.validUntil ?? null,
      generatedAt: stored.generatedAt,
    });
    return Object.assign(new IdGeneration(), { uniqueId, asset });
  }
}
