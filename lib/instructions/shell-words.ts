// The shell vocabulary the rules use: which programs download, decode, interpret, send, install,
// and which paths hold credentials or start-up files. Patterns are alternations of literals.

export const DOWNLOADERS = new Set(["curl", "wget", "fetch", "aria2c", "http", "https", "xh", "lwp-download", "lynx", "iwr", "irm"]);
export const INTERPRETERS = new Set([
  "sh", "bash", "zsh", "dash", "ksh", "fish", "ash", "mksh", "python", "python2", "python3", "perl", "ruby", "node", "php",
  "pwsh", "powershell", "osascript", "deno", "bun", "source", ".", "lua", "tclsh", "eval", "exec",
]);
export const WRAPPERS = new Set(["sudo", "doas", "pkexec", "env", "nohup", "time", "command", "builtin", "nice", "timeout", "stdbuf", "caffeinate", "xargs", "su"]);
export const ELEVATORS = new Set(["sudo", "doas", "pkexec", "su", "runas", "gsudo"]);
export const NET_SENDERS = new Set(["nc", "ncat", "netcat", "telnet", "socat", "scp", "sftp", "rsync", "ftp", "mail", "sendmail", "mutt", "nc.traditional", "nc.openbsd"]);
export const MINERS = new Set(["xmrig", "xmr-stak", "cpuminer", "minerd", "ethminer", "t-rex", "nbminer", "lolminer", "phoenixminer", "cgminer", "bfgminer", "gminer", "srbminer", "teamredminer", "nanominer"]);

/** Private keys, cloud and tool credentials, browser stores, wallets, the keychain, shell history. */
export const CREDENTIAL_PATH =
  /(?:\.ssh\/(?:id_[a-z0-9_]+\b(?!\.pub)|identity\b)|\.aws\/credentials|\.config\/gcloud|application_default_credentials\.json|\.azure\/(?:accessTokens|msal)|\.kube\/config|\.docker\/config\.json|\.npmrc|\.pypirc|\.netrc|\.git-credentials|\.gnupg|Library\/Keychains|login\.keychain|Login Data|Cookies\.sqlite|\/Cookies\b|key4\.db|logins\.json|Local State|google-chrome\/|Google\/Chrome\/|BraveSoftware|\.mozilla\/firefox|Firefox\/Profiles|wallet\.dat|\.electrum|\.bitcoin\/|Exodus\/|MetaMask|Telegram Desktop|\/etc\/shadow|\.bash_history|\.zsh_history|\.config\/gh\/hosts\.yml|\.openclaw\/(?:credentials|auth))/i;
export const ENV_FILE = /(?:^|[\s/@='"])\.env(?:\.[a-z]+)?(?=$|[\s'"])/;
export const KEYCHAIN_COMMANDS = /\b(?:find-generic-password|find-internet-password|dump-keychain|export-keychain)\b/;

export const RC_FILE = /(?:^|\/)(?:\.bashrc|\.bash_profile|\.bash_login|\.zshrc|\.zprofile|\.zshenv|\.zlogin|\.profile|\.kshrc|\.config\/fish\/config\.fish|\/etc\/profile|\/etc\/bash\.bashrc|\/etc\/zshrc)$/;
export const AUTOSTART_PATH = /(?:Library\/LaunchAgents|Library\/LaunchDaemons|\.config\/systemd\/user|\/etc\/systemd\/system|\/etc\/cron|\/var\/spool\/cron|\/etc\/init\.d|\/etc\/rc\.local|\.config\/autostart|Start Menu\\Programs\\Startup|CurrentVersion\\Run)/i;
/** What an honest installer adds to a start-up file: a PATH entry, a variable, a tool's init hook. */
export const RC_BENIGN_LINE = /^\s*(?:export\s+[A-Za-z_]\w*=|[A-Za-z_]\w*=|source\s+|\.\s+|eval\s+"?\$\([\w./-]+\s+(?:init|env|shellenv|hook|completion|activate)|fpath=|path\+=|alias\s+(?!sudo|ssh|su|cd|ls|git|curl)[\w-]+=|#|$)/;

export const DANGEROUS_TARGETS = new Set([
  "/", "/*", "~", "$HOME", "/home", "/Users", "/root", "/etc", "/usr", "/var", "/bin", "/sbin", "/lib", "/System",
  "/Library", "/opt", "/boot", "/dev", "C:", "C:\\", "C:\\Windows", "~/Documents", "~/Desktop", "~/Pictures",
  "~/Library", "~/.ssh", "~/.config", "$HOME/Documents", "$HOME/Desktop", "$HOME/Library", "$HOME/.ssh", "..",
]);

export const PACKAGE_INSTALLERS: Record<string, { sub: string[]; registry: "npm" | "pypi" | "other" }> = {
  npm: { sub: ["install", "i", "add", "isntall", "in"], registry: "npm" },
  pnpm: { sub: ["add", "install", "i"], registry: "npm" },
  yarn: { sub: ["add"], registry: "npm" },
  bun: { sub: ["add", "install", "i"], registry: "npm" },
  npx: { sub: [""], registry: "npm" },
  bunx: { sub: [""], registry: "npm" },
  pip: { sub: ["install"], registry: "pypi" },
  pip3: { sub: ["install"], registry: "pypi" },
  pipx: { sub: ["install", "run"], registry: "pypi" },
  uv: { sub: ["add", "pip install", "tool install"], registry: "pypi" },
  uvx: { sub: [""], registry: "pypi" },
  poetry: { sub: ["add"], registry: "pypi" },
  conda: { sub: ["install"], registry: "other" },
  brew: { sub: ["install"], registry: "other" },
  "apt-get": { sub: ["install"], registry: "other" },
  apt: { sub: ["install"], registry: "other" },
  dnf: { sub: ["install"], registry: "other" },
  yum: { sub: ["install"], registry: "other" },
  pacman: { sub: ["-S"], registry: "other" },
  snap: { sub: ["install"], registry: "other" },
  cargo: { sub: ["install"], registry: "other" },
  go: { sub: ["install"], registry: "other" },
  gem: { sub: ["install"], registry: "other" },
  choco: { sub: ["install"], registry: "other" },
  winget: { sub: ["install"], registry: "other" },
  scoop: { sub: ["install"], registry: "other" },
};
