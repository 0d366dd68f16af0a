"""The scenario as the user edits it, without Qt: drafts (JSON that may be invalid for a while, validated into
`(path, message)` problems) and the form's field specs (widget kind, placeholder, defaults; words from
`models.vocabulary`). The window (`app.gui`) builds its widgets from them; tests drive them headless.
"""
