#ifndef TYPESET_CFACESHARING_H
#define TYPESET_CFACESHARING_H

/// 1 when the process's calls of `cairo_ft_font_face_create_for_pattern` (libpangocairo's
/// included) reach this target's definition, which gives Cairo every face as an `FT_Face` of
/// its own (FaceSharing.c); 0 when they reach Cairo's, whose face cache is not safe from two
/// threads. Asked once; the answer does not change while the process runs.
int typeset_face_sharing_in_effect(void);

/// How many faces the shared table has opened so far (for tests and diagnostics).
long typeset_face_sharing_open_faces(void);

/// How many Cairo font faces made on shared faces are kept for the process (for tests and
/// diagnostics): one per shared face and set of options Cairo was asked for.
long typeset_face_sharing_kept_font_faces(void);

#endif
