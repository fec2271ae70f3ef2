"""The shipped display profiles, one TOML file each (docs/profiles.md); read by `profiles`."""
