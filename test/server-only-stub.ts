// Outside Next.js, `server-only` throws on import; tests run server code directly.
export {};
