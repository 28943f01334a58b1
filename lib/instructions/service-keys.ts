// Documented API keys of well-known services, by the environment variable their own docs name, and
// the hosts that service answers on. Reading a key to call its own service is ordinary work; the
// same key sent anywhere else is credential exfiltration (rule `secrets.key_exfil`).
import { hostOf, isPublicIp } from "./hosts";

export type ServiceKey = { service: string; names: RegExp; hosts: readonly string[] };

/** `*.example.com` is any subdomain of example.com (and example.com itself). */
export const SERVICE_KEYS: readonly ServiceKey[] = [
  { service: "OpenAI", names: /^OPENAI_API_KEY$/, hosts: ["api.openai.com", "*.openai.com", "*.openai.azure.com"] },
  { service: "Anthropic", names: /^ANTHROPIC_API_KEY$/, hosts: ["api.anthropic.com", "*.anthropic.com"] },
  {
    service: "GitHub",
    names: /^(?:GITHUB_TOKEN|GH_TOKEN|GITHUB_PAT|GITHUB_PERSONAL_ACCESS_TOKEN)$/,
    hosts: ["api.github.com", "*.github.com", "*.githubusercontent.com", "ghcr.io"],
  },
  { service: "Stripe", names: /^(?:STRIPE_SECRET_KEY|STRIPE_API_KEY)$/, hosts: ["api.stripe.com", "*.stripe.com"] },
  {
    service: "AWS",
    names: /^AWS_(?:ACCESS_KEY_ID|SECRET_ACCESS_KEY|SESSION_TOKEN|SECURITY_TOKEN|BEARER_TOKEN_BEDROCK)$/,
    hosts: ["*.amazonaws.com", "*.amazonaws.com.cn", "*.aws.amazon.com"],
  },
  {
    service: "Google AI",
    names: /^(?:GEMINI_API_KEY|GOOGLE_API_KEY)$/,
    hosts: ["generativelanguage.googleapis.com", "*.googleapis.com"],
  },
  {
    service: "Hugging Face",
    names: /^(?:HF_TOKEN|HUGGINGFACE_TOKEN|HUGGING_FACE_HUB_TOKEN)$/,
    hosts: ["*.huggingface.co"],
  },
  { service: "Notion", names: /^(?:NOTION_API_KEY|NOTION_TOKEN)$/, hosts: ["api.notion.com"] },
  {
    service: "Slack",
    names: /^(?:SLACK_BOT_TOKEN|SLACK_TOKEN|SLACK_USER_TOKEN)$/,
    hosts: ["slack.com", "*.slack.com"],
  },
  { service: "OpenRouter", names: /^OPENROUTER_API_KEY$/, hosts: ["openrouter.ai"] },
  { service: "Mistral", names: /^MISTRAL_API_KEY$/, hosts: ["api.mistral.ai"] },
  { service: "Groq", names: /^GROQ_API_KEY$/, hosts: ["api.groq.com"] },
  { service: "npm", names: /^NPM_TOKEN$/, hosts: ["registry.npmjs.org", "*.npmjs.org", "*.npmjs.com"] },
  { service: "Telegram", names: /^TELEGRAM_BOT_TOKEN$/, hosts: ["api.telegram.org"] },
];

/** Any of the names above where a text names an environment variable (a prefilter for the rules). */
export const SERVICE_KEY_NAME =
  /\b(?:OPENAI_API_KEY|ANTHROPIC_API_KEY|GITHUB_TOKEN|GH_TOKEN|GITHUB_PAT|GITHUB_PERSONAL_ACCESS_TOKEN|STRIPE_SECRET_KEY|STRIPE_API_KEY|AWS_(?:ACCESS_KEY_ID|SECRET_ACCESS_KEY|SESSION_TOKEN|SECURITY_TOKEN|BEARER_TOKEN_BEDROCK)|GEMINI_API_KEY|GOOGLE_API_KEY|HF_TOKEN|HUGGINGFACE_TOKEN|HUGGING_FACE_HUB_TOKEN|NOTION_API_KEY|NOTION_TOKEN|SLACK_BOT_TOKEN|SLACK_TOKEN|SLACK_USER_TOKEN|OPENROUTER_API_KEY|MISTRAL_API_KEY|GROQ_API_KEY|NPM_TOKEN|TELEGRAM_BOT_TOKEN)\b/;
const SERVICE_KEY_NAMES = new RegExp(SERVICE_KEY_NAME.source, "g");

export function serviceOfKey(name: string): ServiceKey | null {
  return SERVICE_KEYS.find((k) => k.names.test(name)) ?? null;
}

/** The documented keys a text names, each once. */
export function keysNamedIn(text: string): string[] {
  return [...new Set(text.match(SERVICE_KEY_NAMES) ?? [])];
}

const LOCAL_HOST = /^(?:localhost|[\w-]+\.local|[\w-]+\.internal|host\.docker\.internal|\[::1\])$/;

/** A host a key may go to: its service's own, or this machine and the local network. */
export function isOwnHost(key: ServiceKey, host: string): boolean {
  if (LOCAL_HOST.test(host) || ((/^[\d.]+$/.test(host) || host.startsWith("[")) && !isPublicIp(host))) return true;
  return key.hosts.some((h) => (h.startsWith("*.") ? host === h.slice(2) || host.endsWith(h.slice(1)) : host === h));
}

/** The host of a URL, with or without its scheme (`webhook.site/x`); "" when it names none. */
export function hostOfTarget(url: string): string {
  return hostOf(/^[a-z][a-z0-9+.-]*:\/\//i.test(url) ? url : `https://${url}`);
}

/**
 * The first documented key in `keys` sent to a host in `targets` that is not its service's own,
 * with that host; null when every target is the key's own (or there is no target to judge).
 */
export function keySentElsewhere(
  keys: readonly string[],
  targets: readonly string[],
): { key: string; host: string } | null {
  const hosts = targets.map(hostOfTarget).filter((h) => h !== "");
  for (const key of keys) {
    const service = serviceOfKey(key);
    if (!service) continue;
    const host = hosts.find((h) => !isOwnHost(service, h));
    if (host) return { key, host };
  }
  return null;
}
