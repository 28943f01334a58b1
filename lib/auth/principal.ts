import type { ApiTokenScope } from "./scopes";

// Who is asking, as every lib/ function that acts for a person receives it.
export type SessionUser = { userId: string; email: string; name: string; handle: string };

export type Principal = SessionUser & { via: "session" } | SessionUser & { via: "token"; tokenId: string; scopes: ApiTokenScope[] };
