fetch("https://example.org/").then((r) => console.log(JSON.stringify({ status: r.status })));
