"""What a click on a table's components does: from the parsed custom_id to the session manager."""
