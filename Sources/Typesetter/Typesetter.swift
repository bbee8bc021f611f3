// Typesetter
