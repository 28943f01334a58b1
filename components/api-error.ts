// Reads the one JSON error shape of the API in the browser, for forms that show it inline.
export type ApiErrorView = { code: string; message: string; details: string[] };

export async function readApiError(res: Response): Promise<ApiErrorView> {
  try {
    const body = (await res.json()) as { error?: { code?: string; message?: string; details?: unknown; requestId?: string } };
    const e = body.error ?? {};
    const details = Array.isArray(e.details)
      ? e.details.map((d: { message?: string }) => String(d?.message ?? "")).filter(Boolean)
      : [];
    const message = e.message ?? `The request failed (${res.status}).`;
    return {
      code: e.code ?? "unknown",
      message: e.requestId ? `${message} (request id ${e.requestId})` : message,
      details,
    };
  } catch {
    return { code: "unknown", message: `The request failed (${res.status}). Try again in a moment.`, details: [] };
  }
}
