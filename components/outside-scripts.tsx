// "Its instructions ask your agent to run `scripts/setup.py` on your own machine. OpenVibe does not
// run or sandbox it." — for skills whose bundled scripts run outside any sandbox.
import { outsideScriptsWords } from "@/lib/registry/plain-words";

export function OutsideScriptsLine({ names, className }: { names: readonly string[]; className?: string }) {
  const words = outsideScriptsWords(names);
  if (!words) return null;
  return (
    <p className={className} data-testid="outside-scripts">
      {words.before}
      {names.map((n, i) => (
        <span key={n}>
          {i > 0 ? (i === names.length - 1 ? " and " : ", ") : null}
          <code>{n}</code>
        </span>
      ))}
      {words.after}
    </p>
  );
}
