import { randomBytes } from "node:crypto";
import { DEMO_PASSWORD } from "../scripts/demo/demo-data";
import type { Session } from "./scenario";

async function postJson<T>(url: string, body: unknown, token?: string): Promise<T> {
  const response = await fetch(url, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: JSON.stringify(body),
  });
  const parsed = (await response.json()) as T;
  if (!response.ok) throw new Error(`${url}: ${response.status} ${JSON.stringify(parsed)}`);
  return parsed;
}

async function getJson<T>(url: string, token: string): Promise<T> {
  const response = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
  const parsed = (await response.json()) as T;
  if (!response.ok) throw new Error(`${url}: ${response.status} ${JSON.stringify(parsed)}`);
  return parsed;
}

export const signIn = async (baseUrl: string, email: string, password: string) =>
  (await postJson<{ accessToken: string }>(`${baseUrl}/api/v1/auth/login`, { email, password }))
    .accessToken;

/** Tokens and ids the scenarios use, read through the API like any client would. */
export async function openSession(service: { url: string; floorUrl: string }): Promise<Session> {
  const adminToken = await signIn(service.url, "reviewer@demo.example.org", DEMO_PASSWORD);
  const members = await getJson<{ data: { user: { email: string }; lastName: string }[] }>(
    `${service.url}/api/v1/members?limit=40&status=APPROVED`,
    adminToken,
  );
  const someone = members.data[0];
  const memberToken = await signIn(service.url, someone.user.email, DEMO_PASSWORD);
  const offices = await getJson<{ data: { id: string }[] }>(
    `${service.url}/api/v1/offices?limit=1`,
    memberToken,
  );
  const file = await uploadFile(service.url, adminToken);
  return {
    ...file,
    baseUrl: service.url,
    floorUrl: service.floorUrl,
    adminToken,
    memberToken,
    memberEmail: someone.user.email,
    officeId: offices.data[0].id,
    searchTerms: [...new Set(members.data.map((m) => m.lastName.toLowerCase().slice(0, 4)))],
  };
}

/** The bytes of the file the signed-link read serves: a document of a typical size, 1 MiB. */
const FILE_BYTES = Buffer.concat([Buffer.from("%PDF-1.4\n"), randomBytes(1024 * 1024 - 9)]);

/**
 * A PDF uploaded by `token`'s account: its signed link (rendered for its owner, so reading by
 * it writes no audit entry) on the service's own address, and its storage key (the file's id).
 */
async function uploadFile(baseUrl: string, token: string) {
  const form = new FormData();
  form.append("purpose", "REQUIREMENT");
  form.append("file", new Blob([FILE_BYTES], { type: "application/pdf" }), "bench.pdf");
  const response = await fetch(`${baseUrl}/api/v1/files`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}` },
    body: form,
  });
  const answer = (await response.json()) as { data: { id: string; fileUrl: string } };
  if (response.status !== 201) throw new Error(`upload: ${JSON.stringify(answer)}`);
  const link = new URL(answer.data.fileUrl, baseUrl);
  return { fileLink: `${baseUrl}${link.pathname}${link.search}`, fileKey: answer.data.id };
}
