exports.listing = async (slug) => (await fetch(`https://api.openvibe.services/v1/skills/${encodeURIComponent(slug)}`)).json();
