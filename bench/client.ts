import { randomBytes } from "node:crypto";
import { DEMO_PASSWORD } from "../scripts/demo/demo-data";
import { bearer, type Session } from "./scenario";

/** A JSON request that must succeed; with a body, a POST. */
async function json<T>(url: string, token?: string, body?: unknown): Promise<T> {
  const response = await fetch(url, {
    method: body === undefined ? "GET" : "POST",
    headers: { "content-type": "application/json", ...(token ? bearer(token) : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const parsed = (await response.json()) as T;
  if (!response.ok) throw new Error(`${url}: ${response.status} ${JSON.stringify(parsed)}`);
  return parsed;
}

export const signIn = async (baseUrl: string, email: string, password: string) =>
  (await json<{ accessToken: string }>(`${baseUrl}/api/v1/auth/login`, "", { email, password }))
    .accessToken;

/** Tokens and ids the scenarios use, read through the API like any client would. */
export async function openSession(service: { url: string; floorUrl: string }): Promise<Session> {
  const adminToken = await signIn(service.url, "reviewer@demo.example.org", DEMO_PASSWORD);
  const members = await json<{ data: { user: { email: string }; lastName: string }[] }>(
    `${service.url}/api/v1/members?limit=40&status=APPROVED`,
    adminToken,
  );
  const memberEmail = members.data[0].user.email;
  const memberToken = await signIn(service.url, memberEmail, DEMO_PASSWORD);
  const offices = await json<{ data: { id: string }[] }>(
    `${service.url}/api/v1/offices?limit=1`,
    memberToken,
  );
  return {
    ...(await uploadFile(service.url, adminToken)),
    baseUrl: service.url,
    floorUrl: service.floorUrl,
    adminToken,
    memberToken,
    memberEmail,
    officeId: offices.data[0].id,
    searchTerms: [...new Set(members.data.map((m) => m.lastName.toLowerCase().slice(0, 4)))],
  };
}

/**
 * A 1 MiB PDF (a document of a typical size) uploaded by `token`'s account: its signed link,
 * rendered for its owner so that reading by it writes no audit entry, and its storage key.
 */
async function uploadFile(baseUrl: string, token: string) {
  const bytes = Buffer.concat([Buffer.from("%PDF-1.4\n"), randomBytes(1024 * 1024 - 9)]);
  const form = new FormData();
  form.append("purpose", "REQUIREMENT");
  form.append("file", new Blob([bytes], { type: "application/pdf" }), "bench.pdf");
  const response = await fetch(`${baseUrl}/api/v1/files`, {
    method: "POST",
    headers: bearer(token),
    body: form,
  });
  const answer = (await response.json()) as { data: { id: string; fileUrl: string } };
  if (response.status !== 201) throw new Error(`upload: ${JSON.stringify(answer)}`);
  const link = new URL(answer.data.fileUrl, baseUrl);
  return { fileLink: `${baseUrl}${link.pathname}${link.search}`, fileKey: answer.data.id };
}
