#ifndef TYPESET_CFACESHARING_H
#define TYPESET_CFACESHARING_H

/// 1 when the process's calls of `cairo_ft_font_face_create_for_pattern` (libpangocairo's
/// included) reach this target's definition, which gives Cairo every face as an `FT_Face` of
/// its own (FaceSharing.c); 0 when they reach Cairo's, whose face cache is not safe from two
/// threads. Asked once; the answer does not change while the process runs.
int typeset_face_sharing_in_effect(void);

/// Puts the calling thread in `lane` (0: none): the faces Pango asks for on this thread from
/// now on are the lane's own, opened once per file and lane. A render sets the lane of the
/// font map it holds; one render holds a font map at a time.
void typeset_face_sharing_set_lane(long lane);

/// The calling thread's lane (0 when none was set).
long typeset_face_sharing_lane(void);

/// How many faces the shared table has opened so far (for tests and diagnostics).
long typeset_face_sharing_open_faces(void);

/// How many Cairo font faces made on shared faces are kept for the process (for tests and
/// diagnostics): one per shared face and set of options Cairo was asked for.
long typeset_face_sharing_kept_font_faces(void);

/// Gives up the faces of the font file at `path` (every index and lane): a configuration that
/// added the file is gone and no other uses it. Later requests for the path open it again; the
/// Cairo font faces kept on the old faces are let go, and each old face is closed once Cairo
/// holds no font face made on it (Cairo keeps a scaled font for a while after its last use).
void typeset_face_sharing_forget(const char *path);

#endif
