// Preloaded by bunfig.toml before every test file. Tests never read the developer's environment.
process.env.TZ = "UTC";
delete process.env.DATABASE_URL;
