import { lookup as dnsLookup, type LookupAddress } from "node:dns";
import http from "node:http";
import https from "node:https";
import { isIP, type LookupFunction } from "node:net";
import { Webhook } from "standardwebhooks";
import { isSpecialAddress } from "./webhook-target";

/** How long a receiver may take to answer before the attempt counts as failed. */
const TIMEOUT_MS = 10_000;

export interface SignedMessage {
  id: string;
  /** The JSON body, exactly as signed. */
  body: string;
  secret: string;
}

export interface SendResult {
  statusCode: number | null;
  error: string | null;
}

/**
 * Posts one signed message (Standard Webhooks: webhook-id, webhook-timestamp of this attempt,
 * webhook-signature v1). The address is checked where the connection is made, not only when
 * the endpoint was registered: a host that later resolves into a private network is refused.
 * Redirects are not followed (each would be another unchecked target).
 */
export function sendSigned(url: string, message: SignedMessage, allowPrivate: boolean) {
  const target = new URL(url);
  const now = new Date();
  const signature = new Webhook(message.secret).sign(message.id, now, message.body);
  const headers = {
    "content-type": "application/json",
    "user-agent": "chaplaincy-membership-webhooks/1",
    "webhook-id": message.id,
    "webhook-timestamp": String(Math.floor(now.getTime() / 1000)),
    "webhook-signature": signature,
  };
  const host = target.hostname.replace(/^\[|\]$/g, "");
  if (!allowPrivate && isIP(host) && isSpecialAddress(host))
    return Promise.resolve<SendResult>({ statusCode: null, error: "private address refused" });
  const client = target.protocol === "https:" ? https : http;
  return new Promise<SendResult>((resolve) => {
    const request = client.request(
      target,
      {
        method: "POST",
        headers,
        timeout: TIMEOUT_MS,
        ...(allowPrivate ? {} : { lookup: publicOnlyLookup }),
      },
      (response) => {
        // The answer's body is not kept; reading it frees the socket.
        response.resume();
        const statusCode = response.statusCode ?? null;
        const ok = statusCode !== null && statusCode >= 200 && statusCode < 300;
        resolve({ statusCode, error: ok ? null : `answered ${statusCode}` });
      },
    );
    request.on("timeout", () => request.destroy(new Error("no answer in time")));
    request.on("error", (error: NodeJS.ErrnoException) =>
      resolve({ statusCode: null, error: error.code ?? error.message.slice(0, 100) }),
    );
    request.end(message.body);
  });
}

/** dns.lookup that refuses a host with any private, loopback or link-local address. */
const publicOnlyLookup = ((hostname, options, callback) => {
  dnsLookup(hostname, { ...options, all: true }, (error, addresses: LookupAddress[]) => {
    if (error) return callback(error, "", 0);
    if (addresses.length === 0 || addresses.some((entry) => isSpecialAddress(entry.address))) {
      const refused = Object.assign(new Error("private address refused"), {
        code: "EPRIVATEADDRESS",
      });
      return callback(refused, "", 0);
    }
    if ((options as { all?: boolean }).all) return (callback as AllCallback)(null, addresses);
    return callback(null, addresses[0].address, addresses[0].family);
  });
}) as LookupFunction;

type AllCallback = (error: NodeJS.ErrnoException | null, addresses: LookupAddress[]) => void;
