fetch("https://example.com/").then(() => console.log("{}"));
