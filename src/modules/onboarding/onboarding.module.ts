import type { Mailer } from "../../mail/mailer";
import type { FileRefs } from "../files/file-refs";
import type { ModuleBase, ModuleParts } from "../module";
import type { PersonalData } from "../privacy/personal-data";
import { CourseCatalogueService } from "./course-catalogue.service";
import { createCourseModels } from "./course.model";
import { CourseRepository } from "./course.repository";
import { OnboardingAdminService } from "./onboarding-admin.service";
import { exportOnboarding, type OnboardingExport } from "./onboarding-export";
import type { CredentialFacts, InterviewFacts, MembershipYearFacts } from "./onboarding-facts";
import { OnboardingMail } from "./onboarding-mail";
import { OnboardingRecords, type OnboardingMembers } from "./onboarding-members";
import { createPaymentModel } from "./payment.model";
import { PaymentRepository } from "./payment.repository";
import { PaymentService } from "./payment.service";
import type { PaymentReportSource } from "../reports/report-ports";
import { createProgressModel } from "./progress.model";
import { ProgressRepository } from "./progress.repository";
import { ProgressService } from "./progress.service";
import { createRequirementModel } from "./requirement.model";
import { RequirementRepository } from "./requirement.repository";
import { RequirementService } from "./requirement.service";
import { TrainingService } from "./training.service";

/** What onboarding needs from other modules, asked on first use (they are built around it). */
export interface OnboardingModuleDeps {
  /** Member records: the current one, the step, the member type (members module). */
  members: OnboardingMembers;
  /** Stored files: documents, proofs, the certificate's bytes (files module). */
  files: FileRefs;
  /** The member's interview booking and outcome (interviews module). */
  interviews: InterviewFacts;
  /** The rendered ID card and certificate (credentials module). */
  credentials: CredentialFacts;
  /** The membership year the oath starts (membership module). */
  membershipYear: MembershipYearFacts;
}

export interface OnboardingModuleOptions extends ModuleBase {
  mailer: Mailer;
  /** Asked on use: files, interviews, credentials and membership are built after this one. */
  deps: () => OnboardingModuleDeps;
}

/** The onboarding after approval (onboarding-steps.ts) but the interview and the ID generation. */
export function createOnboardingModule(options: OnboardingModuleOptions) {
  const { connection, config, log, mailer, deps } = options;
  const requirementModel = createRequirementModel(connection);
  const paymentModel = createPaymentModel(connection);
  const progressModel = createProgressModel(connection);
  const courseModels = createCourseModels(connection);
  const requirementRepository = new RequirementRepository(requirementModel);
  const paymentRepository = new PaymentRepository(paymentModel);
  const progressRepository = new ProgressRepository(progressModel);
  const courses = new CourseRepository(
    courseModels.lessons,
    courseModels.questions,
    courseModels.counters,
  );

  const files = () => deps().files;
  const records = new OnboardingRecords(() => deps().members);
  const mail = new OnboardingMail(records, mailer, log, config.appUrl);
  const catalogue = new CourseCatalogueService(courses);
  const requirements = new RequirementService(requirementRepository, records, files, mail);
  const training = new TrainingService(progressRepository, catalogue, records);
  const payments = new PaymentService(paymentRepository, records, files, mail, {
    amount: config.membershipFeePhp,
    currency: "PHP",
  });
  const progress = new ProgressService(records, requirements, training, payments, () => ({
    interviews: deps().interviews,
    credentials: deps().credentials,
  }));
  const admin = new OnboardingAdminService(
    records,
    progress,
    progressRepository,
    requirements,
    payments,
    training,
    mail,
    () => ({ credentials: deps().credentials, membershipYear: deps().membershipYear }),
    log,
  );

  const repositories = {
    requirementRepository,
    paymentRepository,
    progressRepository,
    members: { stepTimesOf: (userId: string) => deps().members.stepTimesOf(userId) },
  };
  const personalData: PersonalData<OnboardingExport> = {
    exportOf: (userId) => exportOnboarding(repositories, files(), userId),
    erase: async ({ id }) => {
      const [documents, fees] = await Promise.all([
        requirementRepository.ofUser(id),
        paymentRepository.ofUser(id),
      ]);
      await Promise.all([
        requirementRepository.deleteAllOfUser(id),
        paymentRepository.deleteAllOfUser(id),
        progressRepository.deleteAllOfUser(id),
      ]);
      // No record names these files any more: the files module's own erasure and sweep take them.
      const fileIds = [
        ...documents.map((row) => row.fileId),
        ...fees.flatMap((fee) => [fee.proofFileId, fee.promissoryNoteFileId]),
      ].filter((fileId): fileId is string => fileId !== null);
      if (fileIds.length > 0) await files().release(fileIds);
    },
  };

  return {
    services: { onboarding: { requirements, catalogue, training, payments, progress, admin } },
    /** The port the interviews and credentials modules read onboarding through. */
    facts: progress,
    personalData,
    models: [requirementModel, paymentModel, progressModel, ...Object.values(courseModels)],
    migrations: [
      { name: "onboarding course defaults", run: () => catalogue.seed() },
      {
        name: "payment verification months",
        run: () => paymentRepository.backfillVerifiedMonth(),
      },
    ],
    /** For the reports module: verified payments by month. */
    paymentReports: paymentRepository as PaymentReportSource,
  } satisfies ModuleParts & Record<string, unknown>;
}
