-- Search by name: a query equal to a slug or an author's handle, or a prefix of either, is matched
-- as text (lib/registry/search-names.ts). text_pattern_ops serves both the equality and LIKE 'x%'
-- whatever the database's collation.
CREATE INDEX "SkillLatest_slug_prefix_idx" ON "SkillLatest"("slug" text_pattern_ops);
CREATE INDEX "User_handle_prefix_idx" ON "User"("handle" text_pattern_ops);
