// An error a person can act on, announced by screen readers as soon as it appears.
export function FormError({ message, details }: { message: string | null; details?: string[] }) {
  return (
    <div role="alert" className={message ? "form-error" : "form-error form-error-empty"}>
      {message ? (
        <>
          <p>{message}</p>
          {details && details.length > 0 ? (
            <ul>
              {details.map((d) => (
                <li key={d}>{d}</li>
              ))}
            </ul>
          ) : null}
        </>
      ) : null}
    </div>
  );
}
