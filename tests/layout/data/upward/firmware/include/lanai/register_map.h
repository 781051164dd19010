// The register map, open to every floor.
