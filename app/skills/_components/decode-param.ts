// A route param, percent-decoded; one that does not decode stands as it came. A semver never holds
// "%", so decoding a param that is already decoded changes nothing.
export const decodeParam = (s: string) => {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
};
