"""A session as a page a person looks at: a timeline with a lane per agent, and the conversation.

- `page`       `view_session`, the one way a view is made (library, CLI, `/view`); writing it.
- `build`      the transcript and agent logs, read as the one conversation model
               (`conversation.items`, built by preprocessing's converter), into the page
               model by the items' kinds and roles; the size limits.
- `model`      the page model: card, lanes and bars, threads and their items.
- `timeline`   the lanes' order and the bars' geometry, the time axis.
- `templates`  the jinja2 environment (loaded only when a view is rendered) and its filters;
               `templates/` the HTML page (its style sheet and script put inline) and the
               Markdown conversation.

Why a package of its own rather than a renderer in `preprocess/render/`: a renderer there
turns one unit at a time into text for documents cut under a token budget; a page needs the
whole session first (the timeline spans every log, the header adds up every lane).
"""
