// service_status: asks OpenVibe's public status API whether a service is up.
// Input: { "service": "api" | "run" | "link" | "registry" }
// Output: { "service", "status": "operational" | "degraded" | "outage" | "unknown", "incidents", "checked_at" }
"use strict";

const STATUS_API = "https://api.openvibe.services/v1/status";

async function run(input) {
  const service = input.service || "api";
  const response = await fetch(`${STATUS_API}?service=${encodeURIComponent(service)}`, {
    headers: { accept: "application/json" },
    signal: AbortSignal.timeout(4000),
  });
  if (!response.ok)
    return {
      service,
      status: "unknown",
      incidents: [],
      checked_at: new Date().toISOString(),
      http_status: response.status,
    };
  const body = await response.json();
  const incidents = Array.isArray(body.incidents) ? body.incidents.slice(0, 5) : [];
  return {
    service,
    status: typeof body.status === "string" ? body.status : "unknown",
    incidents: incidents.map((i) => ({ title: String(i.title || ""), since: String(i.started_at || "") })),
    checked_at: new Date().toISOString(),
  };
}

let raw = "";
process.stdin.setEncoding("utf8");
process.stdin.on("data", (chunk) => {
  raw += chunk;
});
process.stdin.on("end", () => {
  run(JSON.parse(raw || "{}")).then(
    (result) => process.stdout.write(JSON.stringify(result)),
    (err) => {
      process.stdout.write(
        JSON.stringify({ error: err.name === "TimeoutError" ? "The status API did not answer in 4 s." : err.message }),
      );
      process.exitCode = 1;
    },
  );
});
