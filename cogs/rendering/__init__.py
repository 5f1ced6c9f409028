"""Renders and their pictures: lobby and table messages, private views, pages, render workers."""
