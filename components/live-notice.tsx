// What an action just did, said once to screen readers (a polite live region) and shown until the
// next one; hidden while empty. Focus it (`ref`) to move a keyboard user there. Styled by the
// global .notice, plus `className`.
import type { Ref } from "react";

export function LiveNotice({
  notice,
  className,
  ref,
}: {
  notice: string;
  className?: string;
  ref?: Ref<HTMLParagraphElement>;
}) {
  return (
    <p
      ref={ref}
      tabIndex={-1}
      role="status"
      aria-live="polite"
      className={notice ? `notice${className ? ` ${className}` : ""}` : "visually-hidden"}
    >
      {notice}
    </p>
  );
}
