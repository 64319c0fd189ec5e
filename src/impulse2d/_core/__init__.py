"""Private engine core: the JIT policy and the world's structure-of-arrays stores."""
