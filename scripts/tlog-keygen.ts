// `npm run tlog:keygen -- <origin>`: a new signing key for a transparency log, e.g. for production
// `npm run tlog:keygen -- openvibe.services/skills-log`. Prints the signer key (a secret: put it in
// the deployment's TLOG_SIGNING_KEY, never in the repository) and the verifier key (public: add it
// to lib/tlog/known-logs.ts with the server's URL, in the release that starts using the key).
import { generateSignerKey } from "../lib/tlog/note";

const name = process.argv[2];
if (!name || process.argv.length > 3) {
  console.error("usage: npm run tlog:keygen -- <origin, e.g. openvibe.services/skills-log>");
  process.exit(2);
}
try {
  const { skey, vkey } = generateSignerKey(name);
  console.log(`TLOG_SIGNING_KEY=${skey}`);
  console.log(`verifier key (public): ${vkey}`);
} catch (err) {
  console.error((err as Error).message);
  process.exit(2);
}
